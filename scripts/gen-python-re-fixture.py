#!/usr/bin/env python3
"""Writes fixtures/model/python-re/python-re.json: what Python 3's `re` on str actually does, for
src/lib/model/pyre.test.ts to compare Loupe's JavaScript regexes against (so the test cannot agree
with itself). Run it with the Python the reference ran on (3.11, Unicode 14.0):

    python3 scripts/gen-python-re-fixture.py

It records
  - classes: the code point ranges Python's \\w, \\d and \\s match, and the ranges Unicode 14
    assigns (category != Cn), over all of U+0000..U+10FFFF;
  - ignorecase: for each ASCII letter, every code point re.IGNORECASE lets it match;
  - parseZ: what the reference's timestamp reader (parse_z: datetime.fromisoformat, then
    datetime.strptime, whose pattern is Unicode \\d under IGNORECASE) returns for Claude Code's
    forms and thousands of seeded mutations of them (digits of other scripts, separators, zones);
  - patterns: the reference's regexes (kernel/event_model.py at 6fb534b1, plus the strptime
    pattern its timestamp fallback uses), each run with the operation the reference uses
    (match / search / findall / sub) over inputs built from sample characters of every class
    (ASCII, Latin-1, CJK, combining marks, the control separators, Unicode spaces, astral).
"""
import json, random, re, sys, unicodedata
from datetime import datetime
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / 'fixtures/model/python-re/python-re.json'

def ranges(pred):
    out, start = [], None
    for c in range(0x110000):
        ok = pred(c)
        if ok and start is None:
            start = c
        elif not ok and start is not None:
            out.append([start, c - 1]); start = None
    if start is not None:
        out.append([start, 0x10FFFF])
    return out

W, D, S = re.compile(r'\w'), re.compile(r'\d'), re.compile(r'\s')
classes = {
    'w': ranges(lambda c: W.match(chr(c)) is not None),
    'd': ranges(lambda c: D.match(chr(c)) is not None),
    's': ranges(lambda c: S.match(chr(c)) is not None),
}
assigned = ranges(lambda c: unicodedata.category(chr(c)) != 'Cn')
ignorecase = {}
for letter in 'abcdefghijklmnopqrstuvwxyz':
    p = re.compile(letter, re.I)
    ignorecase[letter] = [c for c in range(0x110000) if p.fullmatch(chr(c))]

SAMPLES = [
    # ASCII
    'a', 'Z', '0', '9', '_', '-', ' ', '\t', '\n', '\r', '\x0b', '\x0c', '<', '>', '/', ':', '[', ']', ';', '?', '~', '@', '\x00', '\x1b', '\x7f',
    # the control separators and other Python whitespace
    '\x1c', '\x1d', '\x1e', '\x1f', '\x85', '\xa0', '\u1680', '\u2000', '\u2003', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000',
    # look-alikes that are NOT whitespace in Python
    '\u200b', '\ufeff', '\u180e', '\u2060',
    # Latin-1 and other letters
    'é', 'ß', 'µ', 'ª', 'º', '²', '½', '×', '÷', 'λ', 'Ж', 'ς', 'Σ',
    # case-fold specials
    'ſ', '\u212a', 'İ', 'ı', 'ẞ', 'ﬀ', 'ǅ',
    # CJK and other scripts
    '中', '文', '〇', 'ー', '한', 'あ', 'ア',
    # combining marks (Mn, Mc, Me)
    '\u0301', '\u0903', '\u20dd',
    # digits and numbers of other scripts
    '٣', '५', '１', 'Ⅻ', '①', '¹',
    # astral
    '\U0001d400', '\U0001f600', '\U0001d7d8', '\U00010348', '\U00020000', '\U0001d165', '\U000e0001',
]

def fill(template):
    return [template.replace('X', ch) for ch in SAMPLES]

def run(op, rx, s):
    if op == 'match':
        m = rx.match(s)
        return None if m is None else {'text': m.group(0), 'groups': list(m.groups())}
    if op == 'search':
        m = rx.search(s)
        return None if m is None else {'text': m.group(0), 'groups': list(m.groups())}
    if op == 'findall':
        return [list(x) if isinstance(x, tuple) else [x] for x in rx.findall(s)]
    if op == 'sub':
        return rx.sub('', s)
    raise ValueError(op)

# (name, source, flags, op, templates); X in a template is replaced by each sample character.
PATTERNS = [
    ('POSTAL_RE', r'<!--\s*romp-msg-id:\s*(\S+?)\s*-->', 0, 'search',
     ['<!--Xromp-msg-id:X17.1_2.HOSTX-->', '<!-- romp-msg-id: aXb -->', 'see <!--XXromp-msg-id:Xpx-9X--> end', 'romp-msg-id: bareX']),
    ('POSTAL_ANY_RE', r'<!--\s*romp-msg-(id|kind):\s*(\S+?)\s*-->', 0, 'findall',
     ['<!-- romp-msg-id: mX1 --><!--Xromp-msg-kind:XquestionX-->', '<!--Xromp-msg-kind: delegate -->X<!-- romp-msg-id: Xz -->']),
    ('ROMP_INJECT_RE', r'<!--\s*romp-injected\s*-->', 0, 'search', ['nudge <!--Xromp-injectedX-->', '<!--romp-injectedX-->', 'romp-injected X']),
    ('ROMP_AUTO_RE', r'<!--\s*romp-auto\s*-->', 0, 'search', ['<!--XXromp-autoX-->', 'x<!-- romp-auto X-->']),
    ('SYSTEM_WRAPPER_RE', r'^\s*<(?:task-notification|system-reminder)\b', 0, 'match',
     ['X<task-notification>', '<task-notificationX', '<system-reminderX rest', '<task-notification-X', 'Xsystem-reminder']),
    ('TEAMMATE_MSG_RE', r'^\s*(?:<\w+>\s*)?Another Claude session sent a message:', re.I, 'match',
     ['<X>Another Claude session sent a message: hi', '<pX>another claude session sent a message:', '<ab cd>XAnother Claude session sent a message:',
      'XANOTHER CLAUDE SESSION SENT A MESSAGE:', 'another claude Xession sent a message:', 'Another Claude sessXon sent a message:',
      'AnotheX Claude session sent a message:', 'Another CXaude session sent a message:', '<prompt>X<unit>Another Claude session sent a message:',
      'Another Claude session sent a messageX']),
    ('CMD_WRAP_RE', r'^\s*<(?:command-(?:name|message|args|contents)|local-command-(?:stdout|caveat))>', 0, 'match',
     ['X<command-name>/x</command-name>', '<local-command-stdout>X', '<command-argsX>', '<local-command-caveat>X']),
    ('COMMAND_NAME_RE', r'^\s*<command-name>([^<]*)</command-name>', 0, 'match',
     ['<command-name>/aXb</command-name>', 'X<command-name>/c</command-name>', '<command-name>/a<X</command-name><command-name>/z</command-name>']),
    ('COMMAND_NAME_ANY_RE', r'<command-name>([^<]*)</command-name>', 0, 'search',
     ['<command-message>m</command-message><command-name>/aXb</command-name>', '<command-name>/a<X</command-name><command-name>/zX</command-name>']),
    ('COMMAND_ARGS_RE', r'<command-args>([\s\S]*?)</command-args>', 0, 'search',
     ['<command-args>XaX\nb</command-args></command-args>', '<command-args>X']),
    ('LOCAL_STDOUT_RE', r'^\s*<local-command-stdout>([\s\S]*?)</local-command-stdout>', 0, 'match',
     ['<local-command-stdout>oXk\n</local-command-stdout>', 'X<local-command-stdout>x</local-command-stdout>', '<local-command-stdout>unclosedX']),
    ('ANSI_RE', r'\x1b\[[0-9;?]*[ -/]*[@-~]', 0, 'sub',
     ['a\x1b[Xmb', '\x1b[3Xm', '\x1b[38;5;114mgreenX\x1b[39m', '\x1b[?25lX', '\x1b[1:2mX', '\x1b]8;;X\x07link', '\x1b(BX', '\x1b[ X']),
    ('SKILL_CONTENT_RE', r'^\s*Base directory for this skill:', 0, 'match', ['XBase directory for this skill: /x', 'Base directoryXfor this skill:']),
    ('IMG_ECHO_RE', r'^\[Image:[^\]]*\]$', 0, 'match', ['[Image:X]', '[Image: a]X', '[Image: aX]\n', '[Image: a]\n\n', '[Image:X]]']),
]

def parse_z(s):
    # The reference's timestamp reader, verbatim in behaviour (kernel/event_model.py parse_z).
    if not s:
        return None
    s = s.strip()
    try:
        return datetime.fromisoformat(s.replace("Z", "+00:00"))
    except Exception:
        pass
    s = s.replace("Z", "+0000")
    for fmt in ("%Y-%m-%dT%H:%M:%S.%f%z", "%Y-%m-%dT%H:%M:%S%z"):
        try:
            return datetime.strptime(s, fmt)
        except Exception:
            pass
    return None

def epoch(dt):
    # int(dt.timestamp()) as the reference computes it (naive = local time; the oracle ran TZ=UTC),
    # plus the exact microseconds so the viewer's millisecond field can be checked too.
    if dt is None:
        return None
    from datetime import timezone, timedelta
    aware = dt if dt.tzinfo is not None else dt.replace(tzinfo=timezone.utc)
    us = (aware - datetime(1970, 1, 1, tzinfo=timezone.utc)) // timedelta(microseconds=1)
    return {'t': int(aware.timestamp()), 'us': us}

BASES = ['2026-06-10T13:05:09.123Z', '2026-06-10T13:05:09Z', '2026-06-10 13:05:09+02:00', '20260610T130509Z',
         '2026-W24-3T13:05:09Z', '2026-06-10T13:05:09.123456+05:30', '2026-06-10', '2026-06-10T13', '2026-06-10T13:05',
         '2026-06-10T13:05:09.123-0800', '2026-06-10T13:05:09,5Z', '2026-W24T01', '0999-12-31T23:59:59Z']
POOL = list('0123456789-:.,+ TtZzW') + ['\u0663', '\uff11', '\u4e2d', '\x1c', '\u3000', '\u0e53', '\U0001d7d8', '\n']
rng = random.Random(1781096400)
stamps = list(BASES) + [' ' + BASES[0] + '\n', '\x1c' + BASES[0] + '\x85', '\ufeff' + BASES[0], BASES[0].replace('Z', 'z'),
                        '\uff12\uff10\uff12\uff16-06-10T13:05:09Z', '2026-06-1\u0665T1\u0663:0\u0660:0\u0660Z', '2026-02-30T13:05:09Z',
                        '2026-06-10T13:05:60Z', '2026-06-10T24:00:00Z', '2026-06-10T13:+02:00', '2026-06-10T13:05:09.123+02:30:15.5', '']
while len(stamps) < 4000:
    s = list(rng.choice(BASES))
    for _ in range(rng.choice([1, 1, 2, 3])):
        op = rng.random()
        i = rng.randrange(len(s) + 1)
        if op < 0.5 and i < len(s):
            s[i] = rng.choice(POOL)
        elif op < 0.75 and i < len(s):
            del s[i]
        else:
            s.insert(i, rng.choice(POOL))
    stamps.append(''.join(s))
parse_cases = []
seen_stamps = set()
for st in stamps:
    if st in seen_stamps:
        continue
    seen_stamps.add(st)
    parse_cases.append({'input': st, 'result': epoch(parse_z(st))})

out_patterns = []
for name, source, flags, op, templates in PATTERNS:
    rx = re.compile(source, flags)
    cases = []
    seen = set()
    for t in templates:
        for s in fill(t) if 'X' in t else [t]:
            if s in seen:
                continue
            seen.add(s)
            cases.append({'input': s, 'result': run(op, rx, s)})
    out_patterns.append({'name': name, 'source': source, 'ignoreCase': bool(flags & re.I), 'op': op, 'cases': cases})

doc = {
    'python': sys.version.split()[0],
    'unicode': unicodedata.unidata_version,
    'samples': SAMPLES,
    'classes': classes,
    'assigned': assigned,
    'ignorecase': ignorecase,
    'patterns': out_patterns,
    'parseZ': parse_cases,
}
OUT.parent.mkdir(parents=True, exist_ok=True)
OUT.write_text(json.dumps(doc, ensure_ascii=True, separators=(',', ':')) + '\n')
print(f'wrote {OUT} ({OUT.stat().st_size} bytes)')
