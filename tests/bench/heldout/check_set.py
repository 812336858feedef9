"""Checks a held-out retrieval set's format: `python3 check_set.py DIR` (DIR holds
conversations.jsonl and catalogue.jsonl; every expected id must exist)."""

import os
import sys
import json, collections

HERE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
cat = {json.loads(l)["id"]: json.loads(l) for l in open(os.path.join(HERE, "catalogue.jsonl"))}
rows = [json.loads(l) for l in open(os.path.join(HERE, "conversations.jsonl"))]
cnt = collections.Counter((r["category"], r["lang"]) for r in rows)
errs = []
ids = set()
for r in rows:
    assert set(r) == {"id","lang","category","part","turns","core","expect"}, r["id"]
    if r["id"] in ids: errs.append("dup "+r["id"])
    ids.add(r["id"])
    assert r["id"].startswith(r["category"]+"-")
    assert r["lang"] in ("en","de") and r["part"] == "dev"
    assert r["turns"] and r["turns"][-1]["role"] == "visitor", r["id"]
    for t in r["turns"]:
        assert t["role"] in ("visitor","assistant") and t["text"].strip()
    if r["category"] == "after_condensation":
        c = r["core"]; assert c and set(c) == {"request","objects","constraints"}, r["id"]
        assert 1 <= len(r["turns"]) <= 2
        for o in c["objects"]:
            assert o["kind"] in ("article","page","order")
            if o["kind"] != "order" and o["id"] not in cat: errs.append(f'{r["id"]}: core obj {o["id"]}')
    else:
        assert r["core"] is None, r["id"]
    if r["category"] == "paraphrase": assert len(r["turns"]) == 1
    if r["category"] in ("subject_change","followup"): assert 3 <= len(r["turns"]) <= 5, r["id"]
    assert r["expect"] and len(set(r["expect"])) == len(r["expect"]), r["id"]
    for e in r["expect"]:
        if e not in cat: errs.append(f'{r["id"]}: missing {e}')
    # page pairs: if an EN/DE page expected, its counterpart should be too
    pages = [e for e in r["expect"] if e.startswith("page-")]
    if pages and len(pages) % 2 and pages != ["page-de-impressum"]: errs.append(f'{r["id"]}: odd page count {pages}')
print(sorted(cnt.items()))
print(len(rows), "rows;", "errors:", errs or "none")
