// What the person chose to redact, and the default choice. Apart from rules.ts (gitleaks' rule
// table and the regexes built from it) so the page's state names the choice without loading
// the rules at boot; the rules load with the share / export dialog.

export interface RedactOptions {
	/** Secrets by the rules above (on by default; off only when the person says so). */
	secrets: boolean;
	/** `/Users/alice/…`, `/home/bob/…`, `C:\Users\carol\…` → `~/…`. */
	home: boolean;
	emails: boolean;
	/** Strings the person typed; each is redacted wherever it occurs. */
	literals: string[];
	/** Finding ids the person unticked: these exact strings stay. */
	keep: string[];
}

export const DEFAULT_REDACT: RedactOptions = { secrets: true, home: true, emails: false, literals: [], keep: [] };
