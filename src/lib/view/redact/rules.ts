// The one module that loads secret rules: gitleaks' published rules (gitleaks-rules.ts, data)
// plus the few Loupe adds for what transcripts carry and gitleaks has no rule for (connection
// strings with a password, Authorization headers, high-entropy values on `.env` lines), and the
// optional privacy rules the share dialog offers (home directory, e-mail addresses, literal
// strings the user types). Compiles them once per option set.
import type { RedactOptions } from './options.ts';
import { GITLEAKS_GLOBAL_ALLOW, GITLEAKS_RULES, GITLEAKS_SOURCE, type RuleData } from './gitleaks-rules.ts';

export interface Rule {
	id: string;
	re: RegExp;
	keywords: string[];
	entropy: number;
	requireDigit: boolean;
	allowSecret: RegExp[];
	allowMatch: RegExp[];
	/** Text that replaces the secret; `[REDACTED:<id>]` unless the rule says otherwise. */
	replacement: string;
	/** Replace the whole match rather than capture group 1. */
	wholeMatch?: boolean;
}

/** Loupe's own secret rules (same data shape as the gitleaks port). */
export const LOUPE_SECRET_RULES: RuleData[] = [
	{
		// scheme://user:password@host — database URLs, broker URLs, git remotes with a token.
		id: 'connection-string-password',
		// Starts at the literal "://" (found fast); the scheme in front does not change the secret.
		regex: String.raw`://[^\s:/@'"\x60<>]{1,100}:([^\s@/'"\x60<>]{3,200})@[^\s/'"\x60<>]+`,
		flags: 'i',
		keywords: ['://'],
		allowSecret: [String.raw`^(?:\$\{?[A-Za-z_]+\}?|\*+|x+|<[^>]*>|password|pass|secret|changeme)$`]
	},
	{
		// An HTTP Authorization header (curl -H, fetch headers, logged requests); after gitleaks' curl-auth-header.
		id: 'authorization-header',
		regex: String.raw`\bauthorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|api-key)[ \t]+([\w=~@.+/-]{8,})`,
		flags: 'i',
		keywords: ['authorization'],
		entropy: 2.75
	}
];

/** Runs after everything else: high-entropy values on `.env`-style `NAME=value` lines. */
export const DOTENV_RULE: RuleData = {
	id: 'dotenv-value',
	regex: String.raw`^[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_]{1,60}[ \t]*=[ \t]*["']?([^\s"'#\x60]{12,400})`,
	flags: 'm',
	// No keyword: "=" is in nearly every string of code, and the anchored regex is cheaper than
	// stopping the prefilter at each one.
	keywords: [],
	entropy: 3.5,
	requireDigit: true,
	allowSecret: [String.raw`^(?:[/~.$]|https?://[^@]*$)`]
};

const GLOBAL_ALLOW = GITLEAKS_GLOBAL_ALLOW.map((s) => new RegExp(s, 'i'));

function compile(d: RuleData, extra: Partial<Rule> = {}): Rule {
	return {
		id: d.id,
		re: new RegExp(d.regex, `gd${d.flags ?? ''}`),
		keywords: d.keywords,
		entropy: d.entropy ?? 0,
		requireDigit: d.requireDigit ?? false,
		allowSecret: [...(d.allowSecret ?? []).map((s) => new RegExp(s)), ...GLOBAL_ALLOW],
		allowMatch: (d.allowMatch ?? []).map((s) => new RegExp(s, 'i')),
		replacement: `[REDACTED:${d.id}]`,
		...extra
	};
}

const generic = GITLEAKS_RULES.find((r) => r.id === 'generic-api-key');
/** Every secret rule, most specific first (an earlier rule wins where matches overlap). */
export const SECRET_RULES: Rule[] = [
	...GITLEAKS_RULES.filter((r) => r !== generic).map((r) => compile(r)),
	...LOUPE_SECRET_RULES.map((r) => compile(r)),
	...(generic ? [compile(generic)] : []),
	compile(DOTENV_RULE)
];

/** What the share / export dialog lets a person choose. The defaults are what "Redact" means. */
export { DEFAULT_REDACT, type RedactOptions } from './options.ts';

const HOME_RULE: Rule = {
	id: 'home-path',
	// The prefix up to and including the user name; the rest of the path stays.
	re: /(?:\/Users\/|\/home\/|[A-Za-z]:\\{1,2}Users\\{1,2})(?!Shared\b)[A-Za-z0-9._-]+(?=[/\\]|$|[\s'"\x60:;,)\]}])/dg,
	keywords: ['/users/', '/home/', '\\users\\'],
	entropy: 0,
	requireDigit: false,
	allowSecret: [],
	allowMatch: [],
	replacement: '~',
	wholeMatch: true
};

const EMAIL_RULE: Rule = {
	id: 'email',
	re: /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}\b/dg,
	keywords: ['@'],
	entropy: 0,
	requireDigit: false,
	allowSecret: [],
	allowMatch: [],
	replacement: '[REDACTED:email]',
	wholeMatch: true
};

function escapeRe(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function literalRule(literals: string[]): Rule | null {
	const words = [...new Set(literals.map((l) => l.trim()).filter((l) => l.length >= 2))].sort((a, b) => b.length - a.length);
	if (!words.length) return null;
	return {
		id: 'literal',
		re: new RegExp(words.map(escapeRe).join('|'), 'dg'),
		keywords: words.map((w) => w.toLowerCase()),
		entropy: 0,
		requireDigit: false,
		allowSecret: [],
		allowMatch: [],
		replacement: '[REDACTED:literal]',
		wholeMatch: true
	};
}

/** The rules an option set turns on, in precedence order (literals first: the person asked). */
export function rulesFor(opts: RedactOptions): Rule[] {
	const lit = literalRule(opts.literals);
	return [...(lit ? [lit] : []), ...(opts.secrets ? SECRET_RULES : []), ...(opts.home ? [HOME_RULE] : []), ...(opts.emails ? [EMAIL_RULE] : [])];
}

/** One line for an export's header: what was redacted, by which rules, what was kept. */
export function describeRedaction(opts: RedactOptions | null): string {
	if (!opts) return 'Not redacted: this export holds the session as recorded.';
	const what = [
		opts.secrets ? `secrets (gitleaks default rules at ${GITLEAKS_SOURCE.commit.slice(0, 8)}, plus Loupe's connection-string, Authorization and .env rules)` : '',
		opts.home ? 'home directory paths' : '',
		opts.emails ? 'e-mail addresses' : '',
		opts.literals.length ? `${opts.literals.length} typed string(s)` : ''
	].filter(Boolean);
	if (!what.length) return 'Not redacted: every redaction rule was switched off.';
	const kept = opts.keep.length ? ` ${opts.keep.length} finding(s) were kept on purpose.` : '';
	return `Redacted before export: ${what.join(', ')}.${kept}`;
}
