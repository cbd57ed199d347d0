// Secret-detection rules as DATA, ported from gitleaks' default configuration:
//   source:  https://github.com/gitleaks/gitleaks — config/gitleaks.toml (auto-generated default
//            config), read at commit 009e025ad4106ab333aa0b9dc4f2a884390d134c
//   licence: MIT, Copyright (c) 2019 Zachary Rice. Rule ids, regexes, keywords and entropy
//            thresholds are gitleaks' published facts; this file only re-spells them.
// What the port changes, and why:
//   - Go RE2 → JavaScript: inline `(?i)` becomes the `i` flag, `(?-i:…)` groups are spelled out
//     as character classes, `\z` becomes `$`.
//   - The generic rule's leading `[\w.-]{0,50}?` identifier prefix is dropped: it only widens the
//     reported match, never the secret (capture group 1), and costs a backtrack at every offset.
//   - A keyword may be narrowed to a substring the regex itself requires (jwt: "ey" → ".ey"), so
//     the prefilter skips more text without changing what matches.
//   - Only the subset of gitleaks' ~200 rules that shows up in coding-agent transcripts is kept
//     (cloud, AI, source-hosting, chat, payment, package-registry tokens, JWTs, private keys, and
//     the generic "secret-like name = high-entropy value" rule). Path- and file-scoped rules and
//     gitleaks' long stop-word list are left out (a false positive here costs one untick).
// Add a rule by copying it from the same file and converting the regex the same way.

export interface RuleData {
	/** gitleaks rule id (also the `kind` in `[REDACTED:kind]`). */
	id: string;
	/** JavaScript regex source; capture group 1 is the secret when the regex has groups. */
	regex: string;
	/** Extra regex flags ('i', 'm'); 'g' and 'd' are added by the compiler. */
	flags?: string;
	/** Lower-case substrings, at least one of which must occur for the regex to run. */
	keywords: string[];
	/** Minimum Shannon entropy (bits per character) of the secret. */
	entropy?: number;
	/** gitleaks' generic rules also require a digit in the secret. */
	requireDigit?: boolean;
	/** Secrets matching any of these are not secrets (gitleaks' per-rule allowlists). */
	allowSecret?: string[];
	/** Full matches matching any of these are not secrets. */
	allowMatch?: string[];
}

// Shared tails of gitleaks' generated rules.
const END = String.raw`(?:[\x60'"\s;]|\\[nr]|$)`;

export const GITLEAKS_SOURCE = {
	name: 'gitleaks default config (config/gitleaks.toml)',
	url: 'https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml',
	commit: '009e025ad4106ab333aa0b9dc4f2a884390d134c',
	licence: 'MIT'
} as const;

export const GITLEAKS_RULES: RuleData[] = [
	{ id: 'aws-access-token', regex: String.raw`\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b`, keywords: ['a3t', 'akia', 'asia', 'abia', 'acca'], entropy: 3, allowSecret: ['.+EXAMPLE$'] },
	{ id: 'gcp-api-key', regex: String.raw`\b(AIza[\w-]{35})` + END, keywords: ['aiza'], entropy: 4 },
	{ id: 'anthropic-admin-api-key', regex: String.raw`\b(sk-ant-admin01-[a-zA-Z0-9_\-]{93}AA)` + END, keywords: ['sk-ant-admin01'] },
	{ id: 'anthropic-api-key', regex: String.raw`\b(sk-ant-api03-[a-zA-Z0-9_\-]{93}AA)` + END, keywords: ['sk-ant-api03'] },
	{
		id: 'openai-api-key',
		regex: String.raw`\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})` + END,
		keywords: ['t3blbkfj'],
		entropy: 3
	},
	{ id: 'perplexity-api-key', regex: String.raw`\b(pplx-[a-zA-Z0-9]{48})(?:[\x60'"\s;]|\\[nr]|$|\b)`, keywords: ['pplx-'], entropy: 4 },
	{ id: 'huggingface-access-token', regex: String.raw`\b(hf_[a-zA-Z]{34})` + END, keywords: ['hf_'], entropy: 2 },
	{ id: 'github-pat', regex: String.raw`ghp_[0-9a-zA-Z]{36}`, keywords: ['ghp_'], entropy: 3 },
	{ id: 'github-oauth', regex: String.raw`gho_[0-9a-zA-Z]{36}`, keywords: ['gho_'], entropy: 3 },
	{ id: 'github-app-token', regex: String.raw`(?:ghu|ghs)_[0-9a-zA-Z]{36}`, keywords: ['ghu_', 'ghs_'], entropy: 3 },
	{ id: 'github-refresh-token', regex: String.raw`ghr_[0-9a-zA-Z]{36}`, keywords: ['ghr_'], entropy: 3 },
	{ id: 'github-fine-grained-pat', regex: String.raw`github_pat_\w{82}`, keywords: ['github_pat_'], entropy: 3 },
	{ id: 'gitlab-pat', regex: String.raw`glpat-[\w-]{20}`, keywords: ['glpat-'], entropy: 3 },
	{ id: 'slack-bot-token', regex: String.raw`xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*`, keywords: ['xoxb'], entropy: 3 },
	{ id: 'slack-user-token', regex: String.raw`xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}`, keywords: ['xoxp-', 'xoxe-'], entropy: 2 },
	{ id: 'slack-app-token', regex: String.raw`xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`, flags: 'i', keywords: ['xapp'], entropy: 2 },
	{ id: 'slack-legacy-workspace-token', regex: String.raw`xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}`, keywords: ['xoxa', 'xoxr'], entropy: 2 },
	{ id: 'slack-webhook-url', regex: String.raw`(?:https?://)?hooks.slack.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}`, keywords: ['hooks.slack.com'] },
	{ id: 'stripe-access-token', regex: String.raw`\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})` + END, keywords: ['sk_test', 'sk_live', 'sk_prod', 'rk_test', 'rk_live', 'rk_prod'], entropy: 2 },
	{ id: 'twilio-api-key', regex: String.raw`SK[0-9a-fA-F]{32}`, keywords: ['sk'], entropy: 3 },
	{ id: 'sendgrid-api-token', regex: String.raw`\b(SG\.[a-zA-Z0-9=_\-.]{66})` + END, keywords: ['sg.'], entropy: 2 },
	{ id: 'npm-access-token', regex: String.raw`\b(npm_[a-z0-9]{36})` + END, flags: 'i', keywords: ['npm_'], entropy: 2 },
	{ id: 'pypi-upload-token', regex: String.raw`pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}`, keywords: ['pypi-ageichlwas5vcmc'], entropy: 3 },
	{ id: 'digitalocean-pat', regex: String.raw`\b(dop_v1_[a-f0-9]{64})` + END, keywords: ['dop_v1_'], entropy: 3 },
	{ id: 'databricks-api-token', regex: String.raw`\b(dapi[a-f0-9]{32}(?:-\d)?)` + END, keywords: ['dapi'], entropy: 3 },
	{ id: 'shopify-access-token', regex: String.raw`shpat_[a-fA-F0-9]{32}`, keywords: ['shpat_'], entropy: 2 },
	{ id: 'linear-api-key', regex: String.raw`lin_api_[a-zA-Z0-9]{40}`, keywords: ['lin_api_'], entropy: 2 },
	{ id: 'doppler-api-token', regex: String.raw`dp\.pt\.[a-zA-Z0-9]{43}`, keywords: ['dp.pt.'], entropy: 2 },
	{ id: 'postman-api-token', regex: String.raw`\b(PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34})` + END, keywords: ['pmak-'], entropy: 3 },
	{ id: 'sentry-user-token', regex: String.raw`\b(sntryu_[a-f0-9]{64})` + END, keywords: ['sntryu_'], entropy: 3.5 },
	{ id: 'grafana-service-account-token', regex: String.raw`\b(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})` + END, keywords: ['glsa_'], entropy: 3 },
	{ id: 'vault-service-token', regex: String.raw`\b(hvs\.[\w-]{90,120})` + END, keywords: ['hvs.'], entropy: 3.5 },
	{ id: 'heroku-api-key-v2', regex: String.raw`\b(HRKU-AA[0-9a-zA-Z_-]{58})` + END, keywords: ['hrku-aa'], entropy: 4 },
	{ id: 'age-secret-key', regex: String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`, keywords: ['age-secret-key-1'] },
	{
		id: 'azure-ad-client-secret',
		regex: String.raw`(?:^|[\\'"\x60\s>=:(,)])([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?:$|[\\'"\x60\s<),])`,
		keywords: ['q~'],
		entropy: 3
	},
	{
		id: 'jwt',
		regex: String.raw`\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9\/\\_-]{17,}\.(?:[a-zA-Z0-9\/\\_-]{10,}={0,2})?)` + END,
		// gitleaks' keyword is "ey"; ".ey" is a substring the regex itself requires, and far rarer in prose.
		keywords: ['.ey'],
		entropy: 3
	},
	{
		id: 'private-key',
		regex: String.raw`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]{64,}?KEY(?: BLOCK)?-----`,
		flags: 'i',
		keywords: ['-----begin']
	},
	// Last: the specific rules above win where they overlap it.
	{
		id: 'generic-api-key',
		regex:
			String.raw`(?:access|auth|api|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})` + END,
		flags: 'i',
		keywords: ['access', 'api', 'auth', 'key', 'credential', 'creds', 'passwd', 'password', 'secret', 'token'],
		entropy: 3.5,
		requireDigit: true,
		allowSecret: ['^[a-zA-Z_.-]+$'],
		allowMatch: [
			String.raw`^(?:access(?:ibility|or)|access[_.-]?id|random[_.-]?access|api[_.-]?(?:id|name|version)|author|(?:credentials?[_.-]?id|withCredentials)|key[_.-]?(?:alias|board|code|frame|id|length|mesh|name|pair|press(?:ed)?|ring|selector|signature|size|stone|storetype|word|up|down|left|right)|keying|secret[_.-]?(?:length|name|size)|(?:api|credentials|token)[_.-]?(?:endpoint|ur[il])|public[_.-]?token|(?:key|token)[_.-]?file)`
		]
	}
];

/** gitleaks' global allowlist, as it applies to a secret (placeholders, variables, plain paths). */
export const GITLEAKS_GLOBAL_ALLOW: string[] = [
	String.raw`^(?:true|false|null)$`,
	String.raw`^(?:a+|b+|c+|d+|e+|f+|g+|h+|i+|j+|k+|l+|m+|n+|o+|p+|q+|r+|s+|t+|u+|v+|w+|x+|y+|z+|\*+|\.+)$`,
	String.raw`^\$(?:\d+|\{\d+\})$`,
	String.raw`^\$(?:[A-Z_]+|[a-z_]+)$`,
	String.raw`^\$\{(?:[A-Z_]+|[a-z_]+)\}$`,
	String.raw`^\{\{[ \t]*[\w ().|]+[ \t]*\}\}$`,
	String.raw`^%(?:[A-Z_]+|[a-z_]+)%$`,
	String.raw`^/Users/[a-zA-Z0-9]+/[\w .\-/]+$`,
	String.raw`^/(?:bin|etc|home|opt|tmp|usr|var)/[\w ./-]+$`
];
