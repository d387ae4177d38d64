"""Word wrapping, filling, justification, shortening and indentation."""


def wrap(text, width=70, indent="", subsequent_indent=None, break_long_words=True):
    """Split `text` into lines of at most `width` characters, breaking between words.

    Runs of whitespace collapse to one space. `indent` starts the first line and
    `subsequent_indent` (default: `indent`) the others. A word longer than the room on a
    line is split across lines when `break_long_words` is true, else it gets a line of
    its own, even if that line is too long.
    """
    if width < 1:
        raise ValueError("width must be at least 1")
    if subsequent_indent is None:
        subsequent_indent = indent
    if len(indent) >= width or len(subsequent_indent) >= width:
        raise ValueError("the indent leaves no room on the line")
    lines = []
    current = []
    length = 0
    prefix = indent
    for word in text.split():
        room = width - len(prefix)
        if current and length + 1 + len(word) < room:
            current.append(word)
            length += 1 + len(word)
            continue
        if current:
            lines.append(prefix + " ".join(current))
            prefix = subsequent_indent
            room = width - len(prefix)
        while break_long_words and len(word) >= room:
            lines.append(prefix + word[:room])
            word = word[room:]
            prefix = subsequent_indent
            room = width - len(prefix)
        current = [word]
        length = len(word)
    if current:
        lines.append(prefix + " ".join(current))
    return lines


def fill(text, width=70, **options):
    """wrap() joined with newlines."""
    return "\n".join(wrap(text, width, **options))


def fill_paragraphs(text, width=70, **options):
    """Fill each paragraph (separated by blank lines) on its own; paragraphs stay apart."""
    paragraphs = []
    current = []
    for line in text.splitlines():
        if line.strip():
            current.append(line)
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return "\n\n".join(fill(paragraph, width, **options) for paragraph in paragraphs)


def justify(line, width):
    """Spread the words of `line` over exactly `width` characters.

    Extra spaces go to the leftmost gaps first. A single word is padded on the right.
    """
    words = line.split()
    if not words:
        return " " * width
    if len(words) == 1:
        if len(words[0]) > width:
            raise ValueError("the line is longer than the width")
        return words[0].ljust(width)
    gaps = len(words) - 1
    spaces = width - sum(len(word) for word in words)
    if spaces < gaps:
        raise ValueError("the line is longer than the width")
    each, extra = divmod(spaces, gaps)
    out = []
    for position, word in enumerate(words[:-1]):
        out.append(word)
        out.append(" " * (each + (1 if position < extra else 0)))
    out.append(words[-1])
    return "".join(out)


def fill_justified(text, width=70):
    """Wrap `text` and justify every line but the last."""
    lines = wrap(text, width)
    return "\n".join([justify(line, width) for line in lines[:-1]] + lines[-1:])


def center(text, width, fillchar=" "):
    """Center `text` in `width` characters; an odd leftover goes to the right."""
    if len(fillchar) != 1:
        raise ValueError("fillchar must be one character")
    if len(text) >= width:
        return text
    left = (width - len(text)) // 2
    right = width - len(text) - left
    return fillchar * left + text + fillchar * right


def shorten(text, width, placeholder="..."):
    """Collapse whitespace and cut `text` to at most `width` characters at a word boundary.

    `placeholder` marks the cut. When not even the first word fits, it is cut mid-word.
    """
    collapsed = " ".join(text.split())
    if len(collapsed) <= width:
        return collapsed
    if len(placeholder) > width:
        raise ValueError("the placeholder is longer than the width")
    room = width - len(placeholder)
    kept = ""
    for word in collapsed.split(" "):
        candidate = f"{kept} {word}" if kept else word
        if len(candidate) > room:
            break
        kept = candidate
    if not kept:
        kept = collapsed[:room].rstrip()
    return kept + placeholder


def indent(text, prefix, predicate=None):
    """Add `prefix` to the lines of `text` for which `predicate` is true (default: non-blank)."""
    if predicate is None:
        predicate = str.strip
    return "".join(prefix + line if predicate(line) else line for line in text.splitlines(keepends=True))


def dedent(text):
    """Remove the leading whitespace common to every non-blank line; blank lines become empty."""
    lines = text.splitlines(keepends=True)
    margin = None
    for line in lines:
        if not line.strip():
            continue
        leading = line[: len(line) - len(line.lstrip())]
        if margin is None:
            margin = leading
            continue
        common = 0
        while common < len(margin) and common < len(leading) and margin[common] == leading[common]:
            common += 1
        margin = margin[:common]
    out = []
    for line in lines:
        if not line.strip():
            out.append("\n" if line.endswith("\n") else "")
        else:
            out.append(line[len(margin or ""):])
    return "".join(out)
