#!/usr/bin/env python3
"""Check the messages of the exported series (cover letter first, then the
patches in order) as a maintainer reads them:

 - provenance: every patch of the ten that port the 2010 series links the
   2010 thread on lore (no search URL anywhere), and the 2.6.36 commits
   of that series are cited as commit <id> ("<subject>");
 - attribution: "Based on an idea by Michel Lespinasse." (never "Based on
   a patch by"), and each patch that says it Cc:s him;
 - no words of this repository's tooling in upstream text;
 - recipients: every patch has a To:; the proc patches reach Andrew
   Morton, linux-mm and the mm reviewers; PROCMAP_QUERY's author for
   task_mmu.c; the sysctl maintainers for the sysctl;
 - identity: one From: for all, and each patch's last Signed-off-by: is
   its From:.
Prints one line per failed check and exits 1 if any.
"""
import email
import email.header
import email.utils
import re
import sys

THREAD = "https://lore.kernel.org/all/1273840782-5920-1-git-send-email-walken@google.com/"
MERGED = {  # the 2010 series' patches merged in 2.6.36
    "70bdc6e0644f": "rwsem: lighter active count checks when waking up readers",
    "fd41b33435ad": "rwsem: let RWSEM_WAITING_BIAS represent any number of waiting threads",
    "424acaaeb3a3": "rwsem: wake queued readers when writer blocks on active read lock",
    "a8618a0e8a06": "rwsem: smaller wrappers around rwsem_down_failed_common",
}
CREDIT = "Based on an idea by Michel Lespinasse."
CC_MICHEL = "Cc: Michel Lespinasse <michel@lespinasse.org>"
INTERNAL = [  # (pattern, why it does not belong in a message)
    (r"\bU[1-7]\b", "a contract label of this repository"),
    (r"\bmake (check|test|bench|export|tree|demo|mutations|model|build|"
     r"initramfs|mbox|judge-test|check-[a-z]+|test-base|ksft-i386)\b", "a make target of this repository"),
    (r"qemu-boot|disasm-norm|judge\.py|suite-run|maps-bench|DESIGN\.md", "a file of this repository"),
    (r"\b(this|the) project\b|\bharness\b", "talk of this repository"),
    (r"lore\.kernel\.org/[^ ]*\?q=", "a lore search URL, not a message"),
    (r"Based on a patch by", "his code is not in it: 'Based on an idea by'"),
]
MM_PEOPLE = ["akpm@linux-foundation.org", "linux-mm@kvack.org", "surenb@google.com",
             "Liam.Howlett@oracle.com", "lorenzo.stoakes@oracle.com", "vbabka@suse.cz",
             "david@redhat.com"]
SYSCTL_PEOPLE = ["mcgrof@kernel.org", "kees@kernel.org", "joel.granados@kernel.org"]

errors = []


def fail(name, what):
    errors.append("%s: %s" % (name, what))


def header(msg, key):
    v = msg.get(key)
    if v is None:
        return ""
    return str(email.header.make_header(email.header.decode_header(v)))


def addrs(msg, key):
    return [a.lower() for _, a in email.utils.getaddresses([header(msg, key)]) if a]


def split(path):
    msg = email.message_from_binary_file(open(path, "rb"))
    body = msg.get_payload(decode=True).decode()
    text = body.split("\n---\n", 1)[0]
    files = re.findall(r"^diff --git a/(\S+) ", body, re.M)
    return msg, text, files


paths = sys.argv[1:]
cover, patches = paths[0], paths[1:]
cmsg, ctext, _ = split(cover)
# the cover letter's blurb ends where git's shortlog begins
ctext = re.split(r"\n\n[^\n]+ \(\d+\):\n  ", ctext)[0]
ident = header(cmsg, "From")
cited = {}
nseries = 10
for n, path in enumerate([cover] + patches):
    name = path.rsplit("/", 1)[-1][:40]
    msg, text, files = (cmsg, ctext, []) if n == 0 else split(path)
    subject = re.sub(r"\s+", " ", header(msg, "Subject"))
    for pat, why in INTERNAL:
        m = re.search(pat, text)
        if m:
            fail(name, "'%s': %s" % (m.group(0), why))
    for cid, csub in MERGED.items():
        if cid in text:
            flat = re.sub(r"\s+", " ", text)
            if 'commit %s ("%s")' % (cid, csub) not in flat:
                fail(name, "cite %s as commit %s (\"%s\")" % (cid, cid, csub))
            cited[cid] = name
    if n == 0:
        if THREAD not in text:
            fail(name, "the cover letter does not link the 2010 thread " + THREAD)
        continue
    if header(msg, "From") != ident:
        fail(name, "From: %s, the cover letter's is %s" % (header(msg, "From"), ident))
    sobs = re.findall(r"^Signed-off-by: (.*)$", text, re.M)
    if not sobs or sobs[-1] != ident:
        fail(name, "the last Signed-off-by: is not the From: (%s)" % ident)
    to, cc = addrs(msg, "To"), addrs(msg, "Cc")
    if not to:
        fail(name, "no To:")
    if n <= nseries and ("Link: " + THREAD) not in text:
        fail(name, "no 'Link: %s'" % THREAD)
    if CREDIT in text and CC_MICHEL not in text:
        fail(name, "credits Michel Lespinasse without '%s'" % CC_MICHEL)
    everyone = to + cc
    if subject.split("] ", 1)[-1].startswith("proc:"):
        if "akpm@linux-foundation.org" not in to:
            fail(name, "a proc patch not To: Andrew Morton")
        for a in MM_PEOPLE:
            if a.lower() not in everyone:
                fail(name, "a proc patch that does not reach " + a)
    if "fs/proc/task_mmu.c" in files and "andrii@kernel.org" not in everyone:
        fail(name, "touches PROCMAP_QUERY (task_mmu.c) without Andrii Nakryiko")
    if "Documentation/admin-guide/sysctl/vm.rst" in files:
        for a in SYSCTL_PEOPLE:
            if a not in everyone:
                fail(name, "the sysctl patch does not reach " + a)
series_text = "".join(split(p)[1] for p in patches[:nseries])
if CREDIT not in series_text:
    fail("series", "no patch says '%s'" % CREDIT)
for cid in MERGED:
    if cid not in cited:
        fail("series", "commit %s (\"%s\") is cited nowhere" % (cid, MERGED[cid]))
for e in errors:
    print("series-messages: " + e)
if errors:
    sys.exit(1)
print("messages: the 2010 thread linked from %d patches and the cover letter, %d merged "
      "commits cited, credit with Cc:, no tooling words, every patch has a To:, "
      "one identity (%s) in every From: and last Signed-off-by:" % (nseries, len(MERGED), ident))
