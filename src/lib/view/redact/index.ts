// Public surface of redaction: rules as data (gitleaks port + Loupe's own), the scanner, the
// redactor over strings / plain values / JSONL files, and the findings the share dialog lists.
export { DEFAULT_REDACT, SECRET_RULES, describeRedaction, rulesFor, type RedactOptions, type Rule } from './rules.ts';
export { GITLEAKS_RULES, GITLEAKS_SOURCE, type RuleData } from './gitleaks-rules.ts';
export { entropy, findMatches, findingId, maskPreview, ruleSet, type Match } from './scan.ts';
export { FindingCollector, makeRedactor, redactFileText, redactJsonl, scanFiles, scanJsonl, type Finding, type FindingPlace, type Redactor } from './redactor.ts';
