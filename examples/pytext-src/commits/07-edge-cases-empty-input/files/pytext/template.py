"""A small template engine.

    Hello {{ user.name|title }}!                      values, dotted lookups, filters
    {{ price|default:"free" }}                        a filter may take one argument
    {% if n > 1 and not done %}...{% elif n %}...{% else %}...{% endif %}
    {% for item in items %}{{ loop.index }}. {{ item }}{% else %}none{% endfor %}
    {# a comment #}   {%- trims whitespace before a tag, -%} after it

A Template compiles once to a tree of nodes and renders against a dict of values.
Undefined names render as "" unless the template is strict.
"""

import html
import re

_TAG = re.compile(r"({{.*?}}|{%.*?%}|{#.*?#})", re.S)
_FOR = re.compile(r"for\s+([A-Za-z_]\w*)\s+in\s+(.+)$", re.S)
_EXPR_TOKEN = re.compile(
    r"""\s*(?:
        (?P<string>"[^"]*"|'[^']*')
      | (?P<number>-?\d+(?:\.\d+)?(?![\w.]))
      | (?P<op>==|!=|<=|>=|<|>|\||:|\(|\))
      | (?P<word>[A-Za-z_]\w*(?:\.\w+)*)
    )""",
    re.X,
)
_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "in": lambda a, b: a in b,
}
_KEYWORDS = {"and", "or", "not", "in"}
_LITERALS = {"true": True, "false": False, "none": None}


class TemplateError(Exception):
    """A template that does not parse, or a value that cannot be rendered."""

    def __init__(self, message, line=None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class _Undefined:
    """The value of a name that is not in the context: falsy, and renders as ""."""

    __slots__ = ()

    def __bool__(self):
        return False

    def __str__(self):
        return ""

    def __repr__(self):
        return "Undefined"


UNDEFINED = _Undefined()


class Markup(str):
    """Text that autoescaping leaves alone."""


def _truncate(value, length=30):
    text = str(value)
    if len(text) <= length:
        return text
    if length < 3:
        return text[:length]
    return text[: length - 3] + "..."


def _default(value, fallback=""):
    return fallback if value is UNDEFINED or value is None or value == "" else value


FILTERS = {
    "upper": lambda value: str(value).upper(),
    "lower": lambda value: str(value).lower(),
    "title": lambda value: str(value).title(),
    "capitalize": lambda value: str(value).capitalize(),
    "strip": lambda value: str(value).strip(),
    "length": len,
    "first": lambda value: value[0] if value else "",
    "last": lambda value: value[-1] if value else "",
    "sort": sorted,
    "join": lambda value, separator=", ": separator.join(str(item) for item in value),
    "default": _default,
    "truncate": _truncate,
    "round": lambda value, digits=0: round(value, digits) if digits else int(round(value)),
    "escape": lambda value: Markup(html.escape(str(value))),
    "safe": lambda value: Markup(str(value)),
}


def _tokens(source):
    """(kind, content, line) for the text, "var" and "block" parts of `source`; comments dropped."""
    parts = []
    line = 1
    for piece in _TAG.split(source):
        if piece.startswith(("{{", "{%", "{#")) and len(piece) >= 4:
            kind = {"{{": "var", "{%": "block", "{#": "comment"}[piece[:2]]
            inner = piece[2:-2]
            parts.append([kind, inner.strip("-").strip(), line, inner.startswith("-"), inner.endswith("-")])
        elif piece:
            if "{{" in piece or "{%" in piece:
                at = min(index for index in (piece.find("{{"), piece.find("{%")) if index >= 0)
                raise TemplateError("unclosed tag", line + piece[:at].count("\n"))
            parts.append(["text", piece, line, False, False])
        line += piece.count("\n")
    for index, (kind, _, _, trim_before, trim_after) in enumerate(parts):
        if trim_before and index > 0 and parts[index - 1][0] == "text":
            parts[index - 1][1] = parts[index - 1][1].rstrip()
        if trim_after and index + 1 < len(parts) and parts[index + 1][0] == "text":
            parts[index + 1][1] = parts[index + 1][1].lstrip()
    return [(kind, content, line) for kind, content, line, _, _ in parts if kind != "comment"]


class _ExpressionParser:
    """Expressions: or / and / not over comparisons of values; values take |filters."""

    def __init__(self, text, line, filters):
        self.line = line
        self.filters = filters
        self.tokens = []
        position = 0
        text = text.rstrip()
        while position < len(text):
            match = _EXPR_TOKEN.match(text, position)
            if not match or match.end() == position:
                raise TemplateError(f"cannot parse {text[position:].strip()!r}", line)
            self.tokens.append((match.lastgroup, match.group(match.lastgroup)))
            position = match.end()
        self.position = 0

    def parse(self):
        expression = self._or()
        if self.position < len(self.tokens):
            raise TemplateError(f"unexpected {self.tokens[self.position][1]!r}", self.line)
        return expression

    def _peek(self):
        return self.tokens[self.position] if self.position < len(self.tokens) else (None, None)

    def _accept(self, kind, text):
        if self._peek() == (kind, text):
            self.position += 1
            return True
        return False

    def _next(self, wanted):
        if self.position >= len(self.tokens):
            raise TemplateError(f"expected {wanted}", self.line)
        self.position += 1
        return self.tokens[self.position - 1]

    def _or(self):
        left = self._and()
        while self._accept("word", "or"):
            left = ("or", left, self._and())
        return left

    def _and(self):
        left = self._not()
        while self._accept("word", "and"):
            left = ("and", left, self._not())
        return left

    def _not(self):
        if self._accept("word", "not"):
            return ("not", self._not())
        return self._compare()

    def _compare(self):
        left = self._value()
        kind, text = self._peek()
        if (kind == "op" and text in _COMPARE) or (kind, text) == ("word", "in"):
            self.position += 1
            return ("compare", text, left, self._value())
        return left

    def _value(self):
        if self._accept("op", "("):
            value = self._or()
            if not self._accept("op", ")"):
                raise TemplateError("expected ')'", self.line)
        else:
            value = self._atom()
        filters = []
        while self._accept("op", "|"):
            kind, name = self._next("a filter name")
            if kind != "word" or name not in self.filters:
                raise TemplateError(f"unknown filter {name!r}", self.line)
            argument = self._atom() if self._accept("op", ":") else None
            filters.append((name, argument))
        return ("filter", value, filters) if filters else value

    def _atom(self):
        kind, text = self._next("a value")
        if kind == "string":
            return ("literal", text[1:-1])
        if kind == "number":
            return ("literal", float(text) if "." in text else int(text))
        if kind == "word" and text in _LITERALS:
            return ("literal", _LITERALS[text])
        if kind == "word" and text not in _KEYWORDS:
            return ("name", text)
        raise TemplateError(f"expected a value, not {text!r}", self.line)


class Template:
    """A compiled template; render() it as often as needed."""

    def __init__(self, source, autoescape=False, strict=False, filters=None):
        self.autoescape = autoescape
        self.strict = strict
        self.filters = {**FILTERS, **(filters or {})}
        tokens = _tokens(source)
        self._nodes, _ = self._parse(tokens, 0, (), None)

    def _expression(self, text, line):
        return _ExpressionParser(text, line, self.filters).parse()

    def _parse(self, tokens, position, ends, opened_at):
        nodes = []
        while position < len(tokens):
            kind, content, line = tokens[position]
            if kind == "text":
                nodes.append(("text", content))
                position += 1
                continue
            if kind == "var":
                nodes.append(("output", self._expression(content, line), line))
                position += 1
                continue
            keyword = content.split(None, 1)[0] if content else ""
            if keyword in ends:
                return nodes, position
            if keyword == "if":
                node, position = self._parse_if(tokens, position)
            elif keyword == "for":
                node, position = self._parse_for(tokens, position)
            elif keyword in ("elif", "else", "endif", "endfor"):
                raise TemplateError(f"unexpected {{% {keyword} %}}", line)
            else:
                raise TemplateError(f"unknown tag {keyword!r}", line)
            nodes.append(node)
        if ends:
            raise TemplateError(f"missing {{% {ends[-1]} %}}", opened_at)
        return nodes, position

    def _parse_if(self, tokens, position):
        _, content, line = tokens[position]
        condition = self._expression(content[2:], line)
        branches = []
        while True:
            body, position = self._parse(tokens, position + 1, ("elif", "else", "endif"), line)
            branches.append((condition, body))
            _, content, tag_line = tokens[position]
            keyword = content.split(None, 1)[0]
            if keyword == "elif":
                condition = self._expression(content[4:], tag_line)
                continue
            otherwise = []
            if keyword == "else":
                otherwise, position = self._parse(tokens, position + 1, ("endif",), line)
            return ("if", branches, otherwise, line), position + 1

    def _parse_for(self, tokens, position):
        _, content, line = tokens[position]
        match = _FOR.match(content)
        if not match:
            raise TemplateError(f"expected 'for NAME in VALUE', not {content!r}", line)
        iterable = self._expression(match.group(2), line)
        body, position = self._parse(tokens, position + 1, ("else", "endfor"), line)
        otherwise = []
        if tokens[position][1].split(None, 1)[0] == "else":
            otherwise, position = self._parse(tokens, position + 1, ("endfor",), line)
        return ("for", match.group(1), iterable, body, otherwise, line), position + 1

    def render(self, context=None, **values):
        """The template's text for `context` (a dict) and keyword `values`."""
        scope = {**(context or {}), **values}
        out = []
        self._render(self._nodes, scope, out)
        return "".join(out)

    def _render(self, nodes, scope, out):
        for node in nodes:
            kind = node[0]
            if kind == "text":
                out.append(node[1])
            elif kind == "output":
                out.append(self._text(self._evaluate(node[1], scope, node[2])))
            elif kind == "if":
                _, branches, otherwise, line = node
                for condition, body in branches:
                    if self._evaluate(condition, scope, line):
                        self._render(body, scope, out)
                        break
                else:
                    self._render(otherwise, scope, out)
            else:
                self._render_for(node, scope, out)

    def _render_for(self, node, scope, out):
        _, name, iterable, body, otherwise, line = node
        value = self._evaluate(iterable, scope, line)
        if value is None or value is UNDEFINED:
            value = ()
        try:
            items = list(value.items() if isinstance(value, dict) else value)
        except TypeError:
            raise TemplateError(f"cannot loop over {type(value).__name__}", line) from None
        if not items:
            self._render(otherwise, scope, out)
            return
        for index, item in enumerate(items):
            inner = dict(scope)
            inner[name] = item
            inner["loop"] = {
                "index": index + 1,
                "index0": index,
                "first": index == 0,
                "last": index == len(items) - 1,
                "length": len(items),
            }
            self._render(body, inner, out)

    def _text(self, value):
        if value is None or value is UNDEFINED:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        text = str(value)
        if self.autoescape and not isinstance(value, Markup):
            text = html.escape(text)
        return text

    def _evaluate(self, expression, scope, line):
        kind = expression[0]
        if kind == "literal":
            return expression[1]
        if kind == "name":
            return self._lookup(expression[1], scope, line, self.strict)
        if kind == "not":
            return not self._evaluate(expression[1], scope, line)
        if kind == "and":
            left = self._evaluate(expression[1], scope, line)
            return self._evaluate(expression[2], scope, line) if left else left
        if kind == "or":
            left = self._evaluate(expression[1], scope, line)
            return left if left else self._evaluate(expression[2], scope, line)
        if kind == "compare":
            _, operator, left, right = expression
            try:
                return _COMPARE[operator](self._evaluate(left, scope, line), self._evaluate(right, scope, line))
            except TypeError as error:
                raise TemplateError(f"cannot compare with {operator!r}: {error}", line) from None
        return self._filter(expression, scope, line)

    def _filter(self, expression, scope, line):
        _, base, filters = expression
        if base[0] == "name" and filters[0][0] == "default":
            value = self._lookup(base[1], scope, line, strict=False)
        else:
            value = self._evaluate(base, scope, line)
        for name, argument in filters:
            if value is UNDEFINED and name != "default":
                value = ""
            arguments = [] if argument is None else [self._evaluate(argument, scope, line)]
            try:
                value = self.filters[name](value, *arguments)
            except (TypeError, ValueError, AttributeError) as error:
                raise TemplateError(f"filter {name!r} failed: {error}", line) from None
        return value

    def _lookup(self, path, scope, line, strict):
        parts = path.split(".")
        value = scope.get(parts[0], UNDEFINED)
        for part in parts[1:]:
            if value is UNDEFINED:
                break
            value = _attribute(value, part)
        if value is UNDEFINED and strict:
            raise TemplateError(f"{path!r} is undefined", line)
        return value


def _attribute(value, part):
    if isinstance(value, dict):
        return value.get(part, UNDEFINED)
    if isinstance(value, (list, tuple, str)) and part.isdigit():
        index = int(part)
        return value[index] if index < len(value) else UNDEFINED
    if part.startswith("_"):
        return UNDEFINED
    return getattr(value, part, UNDEFINED)


def render(source, context=None, **values):
    """Template(source).render(context, **values)."""
    return Template(source).render(context, **values)
