import pytest

from pytext.template import Markup, Template, TemplateError, render


class User:
    def __init__(self, name, admin=False):
        self.name = name
        self.admin = admin
        self._secret = "hidden"


def test_plain_text_is_unchanged():
    assert render("no tags here\n") == "no tags here\n"
    assert render("") == ""


@pytest.mark.parametrize(
    "source, context, expected",
    [
        ("Hello {{ name }}!", {"name": "Ada"}, "Hello Ada!"),
        ("{{ user.name }}", {"user": {"name": "Ada"}}, "Ada"),
        ("{{ user.name }}", {"user": User("Grace")}, "Grace"),
        ("{{ items.1 }}", {"items": ["a", "b", "c"]}, "b"),
        ("{{ items.9 }}", {"items": ["a"]}, ""),
        ("[{{ missing }}]", {}, "[]"),
        ("[{{ user.missing.deeper }}]", {"user": {}}, "[]"),
        ("{{ user._secret }}", {"user": User("x")}, ""),
        ("{{ n }} {{ flag }} {{ nothing }}", {"n": 3, "flag": True, "nothing": None}, "3 true "),
        ('{{ "literal" }} {{ 42 }} {{ 1.5 }}', {}, "literal 42 1.5"),
    ],
)
def test_values(source, context, expected):
    assert render(source, context) == expected


def test_keyword_values_override_the_context():
    assert render("{{ a }}{{ b }}", {"a": 1, "b": 2}, b=3) == "13"


@pytest.mark.parametrize(
    "source, expected",
    [
        ("{{ name|upper }}", "ADA LOVELACE"),
        ("{{ name|lower }}", "ada lovelace"),
        ("{{ shout|title }}", "Hello World"),
        ("{{ shout|capitalize }}", "Hello world"),
        ("[{{ padded|strip }}]", "[x]"),
        ("{{ items|length }}", "3"),
        ("{{ items|first }}-{{ items|last }}", "c-b"),
        ("{{ items|sort|join }}", "a, b, c"),
        ('{{ items|join:" / " }}', "c / a / b"),
        ('{{ missing|default:"n/a" }}', "n/a"),
        ('{{ empty|default:"n/a" }}', "n/a"),
        ('{{ name|default:"n/a" }}', "Ada Lovelace"),
        ("{{ name|truncate:7 }}", "Ada ..."),
        ("{{ name|truncate:12 }}", "Ada Lovelace"),
        ("{{ name|truncate:2 }}", "Ad"),
        ("{{ pi|round:2 }}", "3.14"),
        ("{{ pi|round }}", "3"),
        ("{{ html|escape }}", "&lt;b&gt;&amp;&lt;/b&gt;"),
        ("{{ name|upper|truncate:5 }}", "AD..."),
    ],
)
def test_filters(source, expected):
    context = {
        "name": "Ada Lovelace",
        "shout": "hELLO wORLD",
        "padded": "  x ",
        "items": ["c", "a", "b"],
        "empty": "",
        "pi": 3.14159,
        "html": "<b>&</b>",
    }
    assert render(source, context) == expected


def test_filter_argument_can_be_a_name():
    assert render("{{ items|join:sep }}", {"items": [1, 2], "sep": "+"}) == "1+2"


def test_custom_filters():
    template = Template("{{ word|reverse }}", filters={"reverse": lambda value: value[::-1]})
    assert template.render(word="abc") == "cba"


@pytest.mark.parametrize(
    "source, context, expected",
    [
        ("{% if ok %}yes{% endif %}", {"ok": True}, "yes"),
        ("{% if ok %}yes{% endif %}", {"ok": False}, ""),
        ("{% if ok %}yes{% else %}no{% endif %}", {}, "no"),
        ("{% if n > 10 %}big{% elif n > 5 %}medium{% else %}small{% endif %}", {"n": 7}, "medium"),
        ("{% if n > 10 %}big{% elif n > 5 %}medium{% else %}small{% endif %}", {"n": 11}, "big"),
        ("{% if n > 10 %}big{% elif n > 5 %}medium{% else %}small{% endif %}", {"n": 5}, "small"),
        ("{% if n >= 5 and n <= 6 %}in{% endif %}", {"n": 5}, "in"),
        ("{% if not done %}todo{% endif %}", {"done": False}, "todo"),
        ("{% if a or b %}one{% endif %}", {"a": 0, "b": "x"}, "one"),
        ('{% if role == "admin" %}admin{% endif %}', {"role": "admin"}, "admin"),
        ('{% if role != "admin" %}user{% endif %}', {"role": "guest"}, "user"),
        ('{% if "b" in letters %}found{% endif %}', {"letters": "abc"}, "found"),
        ("{% if not (a and b) %}not both{% endif %}", {"a": 1, "b": 0}, "not both"),
        ("{% if items|length > 2 %}many{% endif %}", {"items": [1, 2, 3]}, "many"),
        ("{% if user.admin %}admin{% else %}user{% endif %}", {"user": User("x", admin=True)}, "admin"),
    ],
)
def test_conditions(source, context, expected):
    assert render(source, context) == expected


def test_loops():
    source = "{% for item in items %}{{ loop.index }}.{{ item }}{% if not loop.last %}, {% endif %}{% endfor %}"
    assert render(source, items=["a", "b", "c"]) == "1.a, 2.b, 3.c"


def test_loop_variables():
    source = "{% for x in xs %}{{ loop.index0 }}{{ loop.first }}{{ loop.length }};{% endfor %}"
    assert render(source, xs="ab") == "0true2;1false2;"


def test_loop_else_renders_for_empty_sequences():
    source = "{% for x in xs %}{{ x }}{% else %}none{% endfor %}"
    assert render(source, xs=[]) == "none"
    assert render(source, xs=[1]) == "1"


def test_loops_over_dicts_give_pairs_and_nest():
    source = "{% for pair in prices %}{{ pair.0 }}={% for p in pair.1 %}{{ p }}{% endfor %};{% endfor %}"
    assert render(source, prices={"tea": [1, 2], "cake": [3]}) == "tea=12;cake=3;"


def test_loop_variable_does_not_leak():
    assert render("{% for x in xs %}{% endfor %}[{{ x }}]", xs=[1, 2]) == "[]"


def test_comments_are_dropped():
    assert render("a{# a comment\nover lines #}b") == "ab"


def test_whitespace_control():
    source = "<ul>\n  {%- for x in xs %}\n  <li>{{ x }}</li>\n  {%- endfor %}\n</ul>"
    assert render(source, xs=[1, 2]) == "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>"
    assert render("a   {{- x -}}   b", x="-") == "a-b"


def test_autoescape():
    template = Template("{{ text }} {{ text|safe }} {{ text|escape }}", autoescape=True)
    assert template.render(text="<i>") == "&lt;i&gt; <i> &lt;i&gt;"
    assert render("{{ text }}", text="<i>") == "<i>"
    assert isinstance(Template("{{ t|safe }}").render(t="x"), str)
    assert Markup("x") == "x"


def test_strict_templates_refuse_undefined_names():
    template = Template("{{ user.name }}", strict=True)
    assert template.render(user={"name": "Ada"}) == "Ada"
    with pytest.raises(TemplateError, match="'user.name' is undefined"):
        template.render(user={})
    assert Template('{{ x|default:"d" }}', strict=True).render() == "d"


@pytest.mark.parametrize(
    "source, message, line",
    [
        ("{% if x %}open", "missing {% endif %}", 1),
        ("a\n{% for x in xs %}\nb", "missing {% endfor %}", 2),
        ("{% endif %}", "unexpected {% endif %}", 1),
        ("{% if x %}{% else %}{% elif y %}{% endif %}", "unexpected {% elif %}", 1),
        ("{% while x %}", "unknown tag 'while'", 1),
        ("{% for x of xs %}{% endfor %}", "expected 'for NAME in VALUE'", 1),
        ("{{ x|nope }}", "unknown filter 'nope'", 1),
        ("line\n\n{{ x + 1 }}", "cannot parse '\\+ 1'", 3),
        ("{{ x y }}", "unexpected 'y'", 1),
        ("{{ }}", "expected a value", 1),
        ("{{ (x }}", "expected '\\)'", 1),
        ("{{ and }}", "expected a value, not 'and'", 1),
        ("ok\nnot {{ closed", "unclosed tag", 2),
    ],
)
def test_errors_name_the_line(source, message, line):
    with pytest.raises(TemplateError, match=message) as caught:
        Template(source)
    assert caught.value.line == line


def test_render_errors():
    with pytest.raises(TemplateError, match="cannot compare"):
        render("{% if a < b %}{% endif %}", a=1, b="x")
    with pytest.raises(TemplateError, match="cannot loop over int"):
        render("{% for x in n %}{% endfor %}", n=3)
    with pytest.raises(TemplateError, match="filter 'round' failed"):
        render("{{ s|round }}", s="text")
