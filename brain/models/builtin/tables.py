"""The built-in model's tables: the words and phrasings its rules read, as plain data.

Nothing here runs: each table is read by one module of the package, which says how.

- ``PHRASINGS`` (read by :mod:`brain.models.builtin.said`): how people state something that
  lasts. Each row names a phrasing, the kind of memory it makes, a confidence, and the
  pattern that must match a statement from its start (after ``LEAD``, a lead such as "ok,"
  or "in this repo"); ``what`` is the part a description is made of. Order matters: the
  first row that matches a statement classifies it. ``REPEAT_ONLY`` names the rows that
  need a word that makes them last or a second turn, ``NEEDS`` the words a row needs.
- The few explicit forms of a rule in Chinese and Japanese
  (:mod:`brain.models.builtin.cjk`).
- The runbook's programs, what each kind of command is called, and what says a run failed
  (:mod:`brain.models.builtin.runbook`).
"""

from __future__ import annotations

__all__ = [
    "CJK_ASKING",
    "CJK_DURABLE",
    "CJK_LASTING",
    "CJK_OBLIGED",
    "CJK_NOT_A_RULE",
    "CJK_REMEMBER",
    "FAILED_SIGNS",
    "IMPERATIVE",
    "KINDS",
    "KEY_STOP",
    "LEAD",
    "MANAGERS",
    "NEEDS",
    "PHRASINGS",
    "REPEAT_ONLY",
    "RUNNERS",
    "SWITCHES",
]

LEAD = (
    r"^(?:(?:ok(?:ay)?|also|and|btw|oh|hey|so|fyi|one more thing|note|ps|important|critical"
    r"|yes|yeah|yep|sure|alright|great|perfect|thanks|please"
    r"|in this (?:repo(?:sitory)?|project|codebase)|for this (?:repo(?:sitory)?|project)"
    r"|here|in general|generally|I think|I guess|I believe)[,.:!]?\s+"
    # a topic the statement is about: "for the website design, I prefer ..."
    r"|(?:for|on|about|regarding|as for)\s+(?:the|our|my)\s+[\w' -]{2,40},\s+)*"
)

IMPERATIVE = (
    r"(?:run|use|bump|update|add|check|make sure|remember|write|call|restart|rebuild"
    r"|regenerate|commit|push|test|lint|format|ask|tell|open|close|clear)"
)

# Order matters: the first rule that matches a statement classifies it.
# fmt: off
PHRASINGS: tuple[tuple[str, str, float, str], ...] = (
    ("from_now_on", "instruction", 0.9,
     r"(?:please\s+)?(?:from now on|going forward|in future)[,:]?\s+(?P<what>.+)"),
    ("remember", "fact", 0.9,
     r"(?:please\s+)?(?:always\s+)?(?:remember|keep in mind|note for the future)"
     r"(?:\s+that|:|,)\s+(?P<what>.+)"),
    ("document_this", "lesson", 0.8,
     r"(?P<what>.{8,}?),?\s+(?:so\s+|and\s+)?(?:maybe\s+|please\s+)?(?:document|note|record"
     r"|write down|capture)\s+(?:this|that|it)\s+(?:down\s+)?(?:as\s+(?:a\s+)?(?:learning|lesson"
     r"|rule|convention|gotcha)|in (?:the )?(?:repo|docs|readme|agents\.md|claude\.md))\b.*"),
    ("lesson", "lesson", 0.8,
     r"(?:lesson learned|the lesson (?:here )?is|TIL|today I learned)[:,]?\s+"
     r"(?:that\s+)?(?P<what>.+)"),
    ("decision", "decision", 0.8,
     r"(?:we|I)\s+(?:have\s+|'ve\s+)?(?:decided|chose|agreed|settled)\s+"
     r"(?:to\s+|on\s+)?(?P<what>.+?)\s+(?:because|since|as|so that)\s+(?P<why>.+)"),
    ("lets", "decision", 0.75,
     r"(?:let'?s|we(?:'ll| will)|we're going to)\s+(?:use|go with|stick with|switch to|keep"
     r"|standardi[sz]e on)\s+(?P<what>.+?),?\s+(?:because|since|so that)\s+(?P<why>.+)"),
    ("better", "decision", 0.7,
     r"(?:so\s+|maybe\s+|I think\s+)*(?:it's|it is|it'd be|it would be|would be)\s+better\s+to\s+"
     r"(?P<what>.+?)\s+(?:than|rather than|instead of)\s+(?P<not>.+)"),
    ("better_since", "decision", 0.7,
     r"(?:so\s+|maybe\s+|I think\s+)*(?P<what>(?!(?:this|that|it|which)\b)\S+(?:\s+\S+){0,3}"
     r"\s+(?:would be|is)\s+(?:a\s+)?better\s+.{2,60}?)\s+(?:since|because|as)\s+(?P<why>.{6,})"),
    ("lets_set", "decision", 0.6,
     r"(?:let'?s|we(?:'ll| will))\s+(?P<verb>do|use|go with|turn on|turn off|enable|disable|set"
     r"|switch to|pick|choose)\s+(?P<what>[^,;]{2,80}?)[.!]?$"),
    ("no_use", "correction", 0.75,
     r"no[,.!]?\s+(?:please\s+)?(?:use|we use|prefer)\s+(?P<what>.+?),?\s+"
     r"(?:not|instead of|rather than)\s+(?P<not>.+)"),
    ("dont_use", "correction", 0.75,
     r"(?:no[,.!]?\s+)?(?:please\s+)?(?:don't|do not|never)\s+use\s+"
     r"(?P<not>.+?)[,;]\s*(?:use|we use|prefer)\s+(?P<what>.+)"),
    ("dont_but", "correction", 0.7,
     r"(?:no[,.!]?\s+)?(?:please\s+)?(?:don't|do not)\s+(?P<not>\w+\s+.+?),\s*"
     r"(?:instead\s+|rather\s+)?(?P<what>(?:use|run|call|write|put|keep|add|prefer)\s+.+)"),
    ("not_but", "correction", 0.7,
     r"(?:no[,.!]?\s+)?not\s+(?P<not>[\w./@-]+(?:\s+[\w./@-]+)?),\s*(?:use\s+)?"
     r"(?P<what>[\w./@-]+(?:\s+[\w./@-]+){0,3})[.!]?$"),
    ("use_instead", "correction", 0.65,
     r"(?:please\s+)?(?:use|prefer)\s+(?P<what>.+?),?\s+(?:instead of|rather than|not)\s+"
     r"(?P<not>.+)"),
    ("instead", "correction", 0.65,
     r"(?P<what>(?:please\s+)?(?:use|\w+\s+(?:[\w-]+\s+){0,4}?with)\s+"
     r"(?!(?:this|that|it|the other)\b)\S+(?:\s+\S+){0,3}?)\s+instead[.!]?$"),
    ("no_just_use", "correction", 0.6, r"no[,.!]\s+(?:just\s+)?(?:use|we use)\s+(?P<what>.+)"),
    ("actually", "correction", 0.6,
     r"actually[,:]?\s+(?P<what>(?:we|our|this project|the project|in this repo)\b.*"
     r"\b(?:use|uses|prefer|always|never|don't|do not|require|requires|must)\b.*)"),
    ("always", "instruction", 0.85,
     r"(?:(?P<cond>(?:when|whenever|every time|each time|if|before|after|for)\b[^,]{3,80}),"
     r"\s*)?(?:please\s+)?(?:you should\s+|make sure (?:to|you)\s+|we\s+)?"
     r"(?P<what>(?:always|never|don't ever|do not ever)\s+(?!mind\b).+)"),
    ("invariant", "instruction", 0.7,
     r"(?P<what>(?!(?:this|that|it|there|which|what|who|nothing|everything)\b)[\w`'./ -]{3,60}?"
     r"\s+(?:is|are|must be|should be)\s+(?:never|always)\b.{3,})"),
    ("every_time", "instruction", 0.75,
     r"(?P<what>(?:every|each) time (?:you|we)\b[^,]{3,80},\s*(?:please\s+)?" + IMPERATIVE
     + r"\b.+|(?:please\s+)?" + IMPERATIVE + r"\b.{3,}\s(?:every|each) time[.!]?$)"),
    ("prefer", "preference", 0.8,
     r"I\s+(?:\w+ly\s+|actually\s+|still\s+|also\s+|just\s+|do\s+)?"
     r"(?P<verb>prefer|like|love|hate|dislike|don't like|do not like|can't stand)\s+"
     r"(?P<what>.+)"),
    ("rather", "preference", 0.7,
     r"I(?:(?:'d| would)\s+(?:rather|prefer)|\s+rather would like)\s+(?P<what>.+)"),
    ("favour", "preference", 0.7,
     r"I(?:'m| am)?\s+(?:\w+ly\s+|actually\s+|all\s+|very much\s+)?(?:in favou?r of|favou?r)\s+"
     r"(?P<what>.+)"),
    ("on_purpose", "decision", 0.7,
     r"(?P<what>(?:that's|that is|this is) why we\s+.{6,}|we\s+(?:explicitly|deliberately"
     r"|intentionally|purposely)\s+(?:use|chose|choosed|picked|went with|added|add|keep|made)"
     r"\b.{3,}|we\s+(?:use|chose|picked|added)\s+\S+(?:\s+\S+)?\s+(?:on purpose|deliberately"
     r"|explicitly|intentionally)\b.*)"),
    ("renamed", "fact", 0.7,
     r"(?P<what>.{3,60}?(?:\s+is now (?:called|named)|(?:\s+is|'s|\s+has been|\s+was) (?:now\s+)?"
     r"(?:replaced|superseded) by|\s+is deprecated in favou?r of)\s+.{2,80})"),
    ("fine_to", "preference", 0.55,
     r"(?:it's|it is)\s+(?:fine|ok|okay|safe|allowed)\s+to\s+(?P<what>.{6,})"),
    ("right_thing", "decision", 0.65,
     # "validate is not the appropriate subcommand since the scope is portability"
     r".{0,80}?(?P<what>\b[\w`./-]+(?:\s+[\w`./-]+){0,2}\s+(?:is|isn't|is not)\s+(?:not\s+)?the\s+"
     r"(?:right|appropriate|correct|wrong|best|proper)\s+.{3,60}?)\s+(?:since|because|as)\s+"
     r"(?P<why>.{6,})"),
    ("requirement", "instruction", 0.65,
     r"(?:a|one|another|the|our|my)\s+(?:hard\s+|firm\s+|overriding\s+|main\s+|guiding\s+)?"
     r"(?:requirement|rule|principle|directive|policy|convention|constraint|invariant)"
     r" is(?:\s+that)?:?\s+(?P<what>.+)"),
    ("what_i_said", "correction", 0.6,
     r"what I (?:said|meant|asked for|asked) (?:was|is)(?:\s+to)?:?\s+(?P<what>.+)"),
    ("lives_in", "instruction", 0.6,
     r"(?P<what>[\w./-]*[./][\w./-]+\s+(?:should|must|has to|needs to)\s+(?:live|go|be|stay)"
     r"\s+(?:in|under|inside)\s+.+)"),
    ("named_means", "fact", 0.6,
     # what a named thing is or does, said plainly: '"--all-refs" is best effort',
     # "`--tags` means all tags", "--all-refs on first sync wouldn't work for pull refs"
     r"(?:.{0,80}?[,:]\s+)?(?:basically\s+|so\s+)?(?P<what>(?:`[^`]{2,60}`|\"[^\"]{2,40}\""
     r"|--[\w-]{2,40})(?:\s+[\w-]+){0,4}?\s+(?:is|are|means|stays|remains|keeps|wouldn't"
     r"|won't|doesn't|does not|can't|cannot|never|always|only)\s+.{4,})"),
    ("named_should", "instruction", 0.6,
     r"(?P<what>(?:`[^`]{2,60}`|[A-Za-z][\w-]*(?:[._/][\w-]+)+|(?-i:[a-z]+[A-Z]\w*))\s+(?:should|must)"
     r"(?:\s+not|\s+never|\s+always|\s+only)?\s+(?:be|stay|remain)\s+(?!(?:fixed|updated|changed"
     r"|removed|deleted|added|moved|renamed|checked|tested|reverted|done|visible)\b).{3,})"),
    ("needs_to_be", "instruction", 0.55,
     r"(?:no[,.!]?\s+)?(?P<what>(?:it|this|that|they)\s+(?:needs? to|has to|have to)\s+be"
     r"\s+.{6,})"),
    ("i_want", "preference", 0.55,
     r"(?P<what>I\s+(?:really\s+|just\s+|only\s+|actually\s+|also\s+|still\s+)?"
     r"(?:don't\s+|do not\s+)?want\s+"
     r"(?!to know|you to (?:fix|check|look|try|run|do|make|add))"
     r".{6,})"),
    ("we_want", "preference", 0.55,
     r"(?P<what>we\s+(?:really\s+)?(?:don't|do not|never)?\s*want\s+(?:to\s+)?.{6,})"),
    ("no_need", "decision", 0.6,
     # anywhere in a run-on sentence: "move the runs to results, we no longer need the runs
     # folder"; "if the renderer works on data, there's no reason to keep a JSON output"
     # ("we don't need to care about X" is mostly about the work at hand: a thing, not a step)
     r".{0,160}?\b(?P<what>(?:(?:we|you)\s+(?:don't|do not|no longer|won't|will not)\s+"
     r"need(?!\s+to\b)|I\s+(?:don't|do not)\s+think\s+(?:we|you)\s+need(?!\s+to\b)"
     r"|there's no reason to|there is no reason to)"
     r"\s+(?!(?:this|that|it|them)\b).{4,})"),
    ("great_if", "preference", 0.55,
     # a wish for how the thing should behave: "it would be great if it didn't commit"
     r"(?:it|that)(?:'d| would) be (?:great|nice|good|ideal)\s+(?P<what>(?:if|to)\s+.{8,})"),
    ("my_pref", "preference", 0.8, r"my preference is\s+(?:to\s+|for\s+)?(?P<what>.+)"),
    ("important", "instruction", 0.7,
     r"(?:it's|it is|this is|that's)\s+(?:really\s+|very\s+|super\s+|extremely\s+)?"
     r"(?:important|crucial|essential)(?:\s+that|\s+to|[,:;]|\s+-)\s*(?P<what>.+)"),
    ("obliged", "instruction", 0.65,
     r"(?P<what>(?:we|you)\s+(?:always\s+)?(?:have to|must|should(?: always| never)?)"
     r"\s+(?!(?:fix|check|look|see|try|do this|do that)\b).{6,})"),
    ("must_not", "instruction", 0.65,
     r"(?P<what>(?:it|this|that|they|these|those|the [\w-]+(?: [\w-]+)?)\s+(?:must|should)"
     r"(?:\s+not|\s+never|n't)"
     r"\s+.{4,})"),
    ("make_sure", "instruction", 0.55,
     r"(?:please\s+)?(?P<what>(?:always\s+)?make sure (?:to |you |that |u )?.{6,})"),
    ("use_as", "instruction", 0.55,
     r"(?:please\s+)?(?:just\s+)?(?P<what>use\s+(?!(?:this|that|it|them)\b)\S+(?:\s+\S+){0,4}?"
     r"\s+(?:as|for)\s+.{3,})"),
    ("proposes_instead", "correction", 0.6,
     # another way than the one taken, proposed with a modal: "we could create a new writer
     # instead of ...", "consider using time.Now().UTC() instead", "let's rename to steps
     # instead" (checked in said.py: the modal comes before "instead")
     r"(?P<what>.{6,}?\binstead\b.*)"),
    ("shout", "instruction", 0.7, r"(?P<what>.*\b(?-i:NOT|NEVER|ALWAYS|MUST)\b.*)"),
    ("dont", "instruction", 0.5,
     # after a first request in the same sentence: "fold the fixes in, do not run ..."
     r"(?:(?P<cond>(?:when|whenever|if|before|after|once|unless)\b[^,]{3,80})?[^,]{0,80},\s*)?"
     r"(?P<what>(?:please\s+)?(?:don't|do not)\s+\w+.{3,})"),
)
# Said once without a word that makes it last (_DURABLE), these are usually about the
# task at hand ("you should add a test", "make sure the build passes"); said in two
# turns, they are a standing rule.
REPEAT_ONLY = frozenset(
    {
        "dont", "obliged", "must_not", "make_sure", "no_just_use", "we_want", "i_want",
        "needs_to_be", "use_as", "great_if", "proposes_instead",
    }
)
# A word a statement must hold for a rule to be tried (lower case): most statements hold
# none, and a substring test is far cheaper than a pattern that scans the whole statement.
NEEDS: dict[str, tuple[str, ...]] = {
    "document_this": ("document", "note", "record", "write down", "capture"),
    "better": ("better",), "better_since": ("better",), "instead": ("instead",),
    "invariant": ("never", "always"), "named_should": ("should", "must"),
    "renamed": ("called", "named", "replaced", "superseded", "deprecated"),
    "no_need": ("need", "reason"), "right_thing": ("the right", "appropriate", "correct",
    "the wrong", "the best", "proper"), "favour": ("favor", "favour"),
    "great_if": ("would be", "'d be"),
    "dont": ("don't", "do not"), "shout": ("not", "never", "always", "must"),
    "every_time": ("every time", "each time"), "lives_in": ("should", "must", "has to", "needs to"),
    "must_not": ("must", "should"), "fine_to": (" to ",), "use_as": ("use ",),
    "named_means": ("`", '"', "--"), "proposes_instead": ("instead",),
}

# How a description names a switch a person chose: "let's turn on X" is "Turn on X".
SWITCHES = {"turn on": "Turn on", "turn off": "Turn off", "enable": "Enable", "disable": "Disable"}
# Words a key is not made of.
KEY_STOP = frozenset(
    "a an the to of for in on and or is are be that this with we i you please our my it "
    "should must".split()
)

# The runbook. A program that builds, tests, checks or runs a project (a pattern each, read
# from a command's start).
RUNNERS = (
    r"npm(?:\.cmd)?", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx", "deno", "cargo", "go", "make",
    "just", "uv", "uvx", "poetry", "pipenv", "hatch", "tox", "nox", "pytest", r"python3?\s+-m",
    "mix", "gradle", r"\./gradlew", "mvn", "dotnet", "forge", "anchor", "hardhat", "ruff", "mypy",
    "tsc", "eslint", "prettier", "bundle", "rake", "composer", "cmake", "ctest", "bazel",
)
# What a command does, by the first of these words (patterns) it holds: `tsc --noEmit` and
# `mypy` check types, they do not lint. A command none names (`npm run check`) is not kept.
KINDS = (
    ("Tests", ("test", "tests", "pytest", "vitest", "jest", "mocha", "rspec", "ctest", "tox",
               "nox")),
    ("Typecheck", ("tsc", "vue-tsc", "mypy", "pyright", "typecheck", "type-check", "check-types",
                   "svelte-check", r"cargo\s+check")),
    ("Lint", ("lint", "clippy", "ruff", "eslint", "flake8", "pylint", "biome", "prettier",
              "golangci-lint", r"go\s+vet")),
    ("Build", ("build", "compile")),
    ("Run", ("dev", "serve", "server", "start", r"run\s+-p", r"phx\.server", "runserver",
             "preview")),
)
# What says a run failed, anywhere in its result: a non-zero exit, an error the tool marked,
# a count of failures, a compiler's or a runtime's error line, a test runner's FAIL line.
# Each pattern (case ignored unless marked) is tried only when the result holds its word
# (in lower case): most results hold none of them.
FAILED_SIGNS = (
    ("[error]", r"^\[error\]"), ("exit", r"(?:exit code:?|exited with code|exit status)\s*[1-9]"),
    ("fail", r"\b[1-9]\d* (?:failed|failing)\b"), ("error", r"\b[1-9]\d* errors?\b"),
    ("error", r"\berror(?:\[|:)"), ("error ts", r"\berror TS\d+"), ("error:", r"(?-i:[a-z]Error:)"),
    ("error", r"(?-i:^Error\b)"), ("fail", r"(?-i:\bFAIL(?:ED)?\b)"), ("panicked", r"\bpanicked\b"),
    ("npm err!", r"npm ERR!"), ("elifecycle", r"\bELIFECYCLE\b"),
    ("traceback", r"^Traceback \(most recent call last\)"), ("timed out", r"command timed out"),
)
# The package manager a command's first word names.
MANAGERS = (
    "npm", "pnpm", "yarn", "bun", "cargo", "go", "uv", "poetry", "pipenv", "hatch", "mix",
    "dotnet", "bundle",
)
# Chinese and Japanese. A form that says outright that a rule lasts (patterns): "from now
# on" at the start of a sentence (以后 / 今后, not 以后再 "later"), "always", "every time",
# "never", "remember" ...
CJK_LASTING = (
    r"^(?:请\s*)?(?:记住[，,：:]?\s*)?(?:以后|今后|往后|从今以后|从现在开始)(?!再)", "以后都",
    "以后一律", "以后不要", "以后别", "以后不能", "永远不要", "永远别", "始终", "总是要",
    "每次都要", "记住", "长期记", "(?<!正)常に", "必ず", "今後は", "これからは", "毎回", "覚えて",
)
# A must or a must-not, which is as often a step of the task at hand or a line of a spec
# ("必须提供清晰 README", "背景约束（必须遵守）"): like a request not to do something, it
# lasts only with a word of CJK_DURABLE.
CJK_OBLIGED = (
    "一律", "务必", "必须", "禁止", "绝对不要", "千万不要", "不允许", "不准", "絶対に", "決して",
)
# Of these, a fact to remember rather than a rule to follow.
CJK_REMEMBER = ("记住", "长期记", "覚えて")
# A request not to do something, which lasts only with a word below. 别 inside a word is
# none (性别 "gender", 区别 "difference", 特别 "especially", 分别, 类别, 识别, 告别, 个别).
CJK_ASKING = ("不要", "(?<![性区特分类识告个级差辨])别", "しないで", "ないでください")
CJK_DURABLE = ("所有", "每次", "任何", "统一", "全部", "全て", "すべて", "いつも", "どの")
# A complaint or a sentence about the moment: no rule.
CJK_NOT_A_RULE = (
    "你总是", "你老是", "你又", "现在", "今天", "这次", "刚才", "今回", "今日", "さっき", "先别",
    "先不要", "暂时", "暂不",
    "不要长期记", "不要记", "别记",
)
# fmt: on
