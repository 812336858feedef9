#!/usr/bin/env python3
"""Assemble and validate /work/heldout/secrets_v1.jsonl.

Records are written inline in pos_en.py, pos_de.py, neg_en.py, neg_de.py.
Markup inside visitor text:  ⟦...⟧ = secret (must be gone), ⟪...⟫ = keep (must survive).
A turn string starting with "A: " is an assistant turn, everything else is a visitor turn.
"""
import json, re, sys, os, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pos_en, pos_de, neg_en, neg_de

KINDS = {"card": "card", "card_split": "cardsplit", "cvv": "cvv", "expiry_with_card": "exp",
         "pin": "pin", "otp": "otp", "tan": "tan", "password": "pw", "passphrase": "pp",
         "login": "login", "benign": "ben"}
SEC = re.compile(r"⟦(.*?)⟧")
KEEP = re.compile(r"⟪(.*?)⟫")

def luhn_ok(d):
    t = 0
    for i, c in enumerate(reversed(d)):
        x = int(c)
        if i % 2:
            x *= 2
            if x > 9: x -= 9
        t += x
    return t % 10 == 0

errors = []
def err(rid, msg): errors.append(f"{rid}: {msg}")

def parse(lang, kind, turns):
    if isinstance(turns, str): turns = [turns]
    out, secrets, keep, marks = [], [], [], collections.Counter()
    for t in turns:
        if t.startswith("A: "):
            if "⟦" in t or "⟪" in t: raise ValueError("markup in assistant turn: " + t)
            out.append({"role": "assistant", "text": t[3:]})
            continue
        for m in SEC.finditer(t):
            marks[m.group(1)] += 1
            if m.group(1) not in secrets: secrets.append(m.group(1))
        for m in KEEP.finditer(t):
            if m.group(1) not in keep: keep.append(m.group(1))
        clean = t.replace("⟦", "").replace("⟧", "").replace("⟪", "").replace("⟫", "")
        if any(c in clean for c in "⟦⟧⟪⟫"): raise ValueError(t)
        out.append({"role": "visitor", "text": clean})
    return out, secrets, keep, marks

records, counters = [], collections.Counter()
for mod in (pos_en, pos_de, neg_en, neg_de):
    for item in mod.RECORDS:
        lang, kind, turns = item
        if kind not in KINDS: raise ValueError(kind)
        counters[(lang, kind)] += 1
        rid = f"{lang}-{KINDS[kind]}-{counters[(lang, kind)]:03d}"
        t, s, k, marks = parse(lang, kind, turns)
        rec = {"id": rid, "lang": lang, "kind": kind, "turns": t, "secrets": s, "keep": k}
        rec["_marks"] = marks
        records.append(rec)

# ---------------- validation ----------------
ids = set()
multi_pos = 0
for r in records:
    rid = r["id"]
    if rid in ids: err(rid, "duplicate id")
    ids.add(rid)
    vis = [t["text"] for t in r["turns"] if t["role"] == "visitor"]
    ast = [t["text"] for t in r["turns"] if t["role"] == "assistant"]
    allv = "\n".join(vis)
    if not vis: err(rid, "no visitor turn")
    for s in r["secrets"]:
        if not any(s in v for v in vis): err(rid, f"secret not verbatim: {s!r}")
        if allv.count(s) != r["_marks"][s]: err(rid, f"secret {s!r} occurs {allv.count(s)}x but marked {r['_marks'][s]}x")
        if any(s in a for a in ast): err(rid, f"secret in assistant turn {s!r}")
        for k in r["keep"]:
            if s in k or k in s: err(rid, f"secret/keep overlap {s!r} {k!r}")
        if s != s.strip() or not s: err(rid, f"secret has outer whitespace {s!r}")
    for k in r["keep"]:
        if not any(k in v for v in vis): err(rid, f"keep not verbatim: {k!r}")
    if r["kind"] == "benign":
        if r["secrets"]: err(rid, "benign with secrets")
        if not r["keep"]: err(rid, "benign without keep")
        # no accidental Luhn-valid card-length digit runs in benign text
        for m in re.finditer(r"\d(?:[ \-.]?\d){12,18}", allv):
            d = re.sub(r"\D", "", m.group(0))
            if 13 <= len(d) <= 19 and luhn_ok(d): err(rid, f"benign contains Luhn-valid run {m.group(0)!r}")
    else:
        if not r["secrets"]: err(rid, "positive without secrets")
    if r["kind"] in ("card", "expiry_with_card", "card_split"):
        digs = [re.sub(r"\D", "", s) for s in r["secrets"]]
        ok = False
        # any contiguous run of secrets whose digits join to a Luhn-valid 13..19 digit number
        for i in range(len(digs)):
            acc = ""
            for j in range(i, len(digs)):
                acc += digs[j]
                if 13 <= len(acc) <= 19 and luhn_ok(acc) and (r["kind"] != "card_split" or j > i):
                    ok = True
        if not ok: err(rid, f"no Luhn-valid card in secrets {r['secrets']}")
        if r["kind"] == "card_split" and len(vis) < 2: err(rid, "split card needs >=2 visitor turns")
    if r["kind"] != "benign" and r["kind"] != "card_split" and len(r["turns"]) > 1:
        multi_pos += 1
    # text sanity
    for t in r["turns"]:
        if not t["text"].strip(): err(rid, "empty turn")

# near-duplicate check: identical visitor text across records
seen = {}
for r in records:
    key = re.sub(r"\W+", " ", " ".join(t["text"] for t in r["turns"]).lower()).strip()
    if key in seen: err(r["id"], f"duplicate text with {seen[key]}")
    seen[key] = r["id"]

pos = [r for r in records if r["kind"] != "benign"]
neg = [r for r in records if r["kind"] == "benign"]
kc = collections.Counter(r["kind"] for r in records)
need = [
    (len(pos) >= 330, f"positives {len(pos)} >= 330"),
    (sum(r["lang"] == "de" for r in pos) >= 130, "de positives >= 130"),
    (kc["password"] + kc["passphrase"] >= 60, "passwords >= 60"),
    (kc["otp"] + kc["tan"] >= 40, "otp/tan >= 40"),
    (kc["card"] + kc["card_split"] + kc["expiry_with_card"] >= 40, "cards >= 40"),
    (kc["card_split"] >= 12, "split >= 12"),
    (kc["cvv"] >= 20, "cvv >= 20"), (kc["pin"] >= 20, "pin >= 20"), (kc["login"] >= 15, "login >= 15"),
    (multi_pos >= 20, f"multi-turn corrections/code-alone {multi_pos} >= 20"),
    (len(neg) >= 320, f"benign {len(neg)} >= 320"),
    (sum(r["lang"] == "de" for r in neg) >= 130, "de benign >= 130"),
]
for ok, msg in need:
    if not ok: errors.append("QUOTA: " + msg)

if errors:
    print("\n".join(errors)); print(f"{len(errors)} errors"); sys.exit(1)

out = "/work/heldout/secrets_v1.jsonl"
with open(out, "w", encoding="utf-8") as f:
    for r in records:
        r.pop("_marks")
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
# re-read check
with open(out, encoding="utf-8") as f:
    for line in f: json.loads(line)
print("written", out, len(records), "records")
print("multi-turn positives (excl. split cards):", multi_pos)
tab = collections.Counter((r["kind"], r["lang"]) for r in records)
for k in KINDS:
    print(f"{k:18s} en={tab[(k,'en')]:4d} de={tab[(k,'de')]:4d} total={tab[(k,'en')]+tab[(k,'de')]:4d}")
print("positives:", len(pos), "de:", sum(r['lang']=='de' for r in pos), "| benign:", len(neg), "de:", sum(r['lang']=='de' for r in neg))
