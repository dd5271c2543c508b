"""A tree of text files for bench/search.bench.ts, made inside the sandbox (seeded: the same tree each run).

python3 searchTree.py ROOT FILES KB [RARE_WORD RARE_FILES COMMON_WORD]

FILES files of about KB KiB each under ROOT, 100 to a folder, two folders deep, named as code is
(widgetFactory123.ts) so Go to File has words to match; lines of made-up words; COMMON_WORD in one
line in fifty (so in nearly every file), RARE_WORD once in each of RARE_FILES files spread evenly.
Prints a line every 10,000 files (so the runtime's stream is never idle for long) and, last,
one JSON line: {"files", "bytes", "rareFiles"}.
"""

import json
import os
import random
import sys

root = sys.argv[1]
count = int(sys.argv[2])
kib = float(sys.argv[3])
rare = sys.argv[4] if len(sys.argv) > 4 else ""
rare_files = int(sys.argv[5]) if len(sys.argv) > 5 else 0
common = sys.argv[6] if len(sys.argv) > 6 else ""

random.seed(41)
code_words = (
    "widget factory parser client server handler model view store config router schema loader "
    "buffer stream socket token logger cache queue render layout theme button dialog editor "
    "search index event worker session account billing report export import format filter table chart"
).split()
letters = "abcdefghijklmnoprstuvwy"
made_up = ["".join(random.choices(letters, k=random.randint(2, 10))) for _ in range(5000)]
vocabulary = [w for w in made_up + code_words * 20 if (not common or common not in w)]

pool = []
for i in range(4000):
    words = random.choices(vocabulary, k=random.randint(3, 14))
    if common and i % 50 == 0:
        words.insert(random.randrange(len(words) + 1), common)
    pool.append(" ".join(words))
average_line = sum(len(line) + 1 for line in pool) / len(pool)
lines_per_file = max(1, round(kib * 1024 / average_line))

areas = code_words[:20]
modules = code_words[20:] + code_words[:10]
extensions = ["ts", "py", "md", "txt", "js", "go"]
# Evenly spread, the first one early (a search's first result is not luck of the draw).
holders = {round(k * count / rare_files) for k in range(rare_files)} if rare_files else set()

total = 0
for i in range(count):
    folder_index = i // 100
    folder = os.path.join(
        root,
        areas[folder_index % len(areas)],
        f"{modules[(folder_index // len(areas)) % len(modules)]}{folder_index}",
    )
    if i % 100 == 0:
        os.makedirs(folder, exist_ok=True)
    a, b = random.choice(code_words), random.choice(code_words)
    name = f"{a}{b.capitalize()}{i}.{random.choice(extensions)}"
    lines = random.choices(pool, k=random.randint(lines_per_file // 2, lines_per_file * 3 // 2))
    if i in holders:
        lines.insert(random.randrange(len(lines) + 1), f"the {rare} of line {i}")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)
    total += len(text)
    if (i + 1) % 10000 == 0:
        print(f"{i + 1} files", flush=True)

print(json.dumps({"files": count, "bytes": total, "rareFiles": len(holders)}), flush=True)
