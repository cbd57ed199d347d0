// The one-file HTML export's stylesheet: Loupe's chat colours (light, dark, system; chosen by
// radio buttons and :has(), so no script is needed), the row looks, and a print stylesheet
// (controls hidden, rows kept whole, expanded rows print expanded).
const LIGHT = `--bg:#ffffff;--fg:#1f2328;--dim:#5b636d;--border:#d8dee4;--surface:#f6f8fa;--bubble:#e8f0fe;--bubble-fg:#132a4d;--code:#f2f4f7;--link:#0757c7;--add-bg:#e6ffec;--add-fg:#116329;--del-bg:#ffebe9;--del-fg:#a40e26;--err-bg:#fff0ee;--err-fg:#a40e26;--term-bg:#15191e;--term-fg:#e6edf3;--kw:#a626a4;--str:#116329;--num:#b45309;--title:#0550ae;color-scheme:light;`;
const DARK = `--bg:#0f1216;--fg:#e6edf3;--dim:#9aa5b1;--border:#30363d;--surface:#161b22;--bubble:#1c2b44;--bubble-fg:#dbe7ff;--code:#1b2129;--link:#6cb6ff;--add-bg:#12261a;--add-fg:#7ee2a0;--del-bg:#2d1417;--del-fg:#ff9ba3;--err-bg:#2d1417;--err-fg:#ff9ba3;--term-bg:#0a0d10;--term-fg:#e6edf3;--kw:#d2a8ff;--str:#7ee2a0;--num:#f0b072;--title:#79c0ff;color-scheme:dark;`;

export const HTML_STYLE = `
:root{${LIGHT}--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace}
@media (prefers-color-scheme:dark){:root{${DARK}}}
:root:has(#theme-light:checked){${LIGHT}}
:root:has(#theme-dark:checked){${DARK}}
html,body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
.theme-input{position:absolute;opacity:0;pointer-events:none}
header.top{max-width:60rem;margin:0 auto;padding:1rem 1.2rem .5rem;border-bottom:1px solid var(--border)}
header.top h1{font-size:1.3rem;margin:0 0 .3rem}
.facts{color:var(--dim);font-size:.85rem;margin:.15rem 0}
.themes{display:flex;gap:.4rem;margin:.5rem 0 0;font-size:.85rem}
.themes label{border:1px solid var(--border);border-radius:6px;padding:.15rem .6rem;cursor:pointer}
:root:has(#theme-auto:checked) label[for=theme-auto],:root:has(#theme-light:checked) label[for=theme-light],:root:has(#theme-dark:checked) label[for=theme-dark]{background:var(--surface);font-weight:600}
main{max-width:60rem;margin:0 auto;padding:.5rem 1.2rem 3rem}
.row{margin:.7rem 0}
.turn{border-top:1px dashed var(--border);margin-top:1.2rem;padding-top:.3rem}
.who{font-size:.8rem;color:var(--dim);margin-bottom:.2rem}
.row-user .bubble{background:var(--bubble);color:var(--bubble-fg);border-radius:12px;padding:.55rem .8rem;white-space:pre-wrap;overflow-wrap:anywhere}
details{border:1px solid var(--border);border-radius:8px;background:var(--surface);padding:.3rem .7rem}
details>summary{cursor:pointer;color:var(--dim);font-size:.9rem}
details[open]>summary{margin-bottom:.4rem}
details details{margin:.4rem 0;background:var(--bg)}
.call{margin:.5rem 0}
.call-title{font-weight:600;font-size:.9rem}
.failed{color:var(--err-fg)}
pre{margin:.3rem 0;padding:.55rem .75rem;background:var(--code);border-radius:6px;overflow-x:auto;font:.82rem/1.45 var(--mono);white-space:pre-wrap;overflow-wrap:anywhere}
pre.term{background:var(--term-bg);color:var(--term-fg)}
code{font-family:var(--mono);font-size:.92em}
:not(pre)>code{background:var(--code);padding:.1em .3em;border-radius:4px}
.diff .add{background:var(--add-bg);color:var(--add-fg);display:block}
.diff .del{background:var(--del-bg);color:var(--del-fg);display:block}
.diff .hunk{color:var(--dim);display:block}
.cut,.note{color:var(--dim);font-size:.8rem;font-style:italic}
.row-error{background:var(--err-bg);color:var(--err-fg);border-radius:8px;padding:.5rem .8rem}
.thought{white-space:pre-wrap;color:var(--dim);font-style:italic}
.md{overflow-wrap:anywhere}
.md p{margin:.4em 0}
.md table{border-collapse:collapse;display:block;overflow-x:auto}
.md th,.md td{border:1px solid var(--border);padding:.25em .6em}
.md img,.imgs img{max-width:100%;max-height:320px}
.md blockquote{margin:.4em 0;padding-left:.8em;border-left:3px solid var(--border);color:var(--dim)}
.md .code-block{margin:.5em 0}
a{color:var(--link)}
.hljs-keyword,.hljs-built_in,.hljs-selector-tag{color:var(--kw)}
.hljs-string,.hljs-attr,.hljs-addition{color:var(--str)}
.hljs-comment,.hljs-quote{color:var(--dim);font-style:italic}
.hljs-number,.hljs-literal,.hljs-deletion{color:var(--num)}
.hljs-title,.hljs-function,.hljs-type{color:var(--title)}
@media print{
:root{${LIGHT}}
.themes,.theme-input{display:none}
.row,.call,pre{break-inside:avoid-page}
details{border-color:#bbb}
pre{white-space:pre-wrap}
a{color:inherit;text-decoration:underline}
}
`;
