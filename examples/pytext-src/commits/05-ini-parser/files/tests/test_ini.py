import pytest

from pytext.ini import IniError, IniFile, parse_ini

SAMPLE = """\
; global settings
[DEFAULT]
base = /srv
debug = off

[server]
host = example.org   ; the public name
Port: 8080
root = ${base}/www
url = http://${host}:${port}/
ratio = 0.75
tags = web, api,
    internal

[client]
retries = 3
greeting = "  hello ; world  "
server = ${server:url}
price = $$5
debug = YES
"""


@pytest.fixture
def ini():
    return parse_ini(SAMPLE)


def test_sections_in_file_order_without_default(ini):
    assert ini.sections() == ["server", "client"]
    assert ini.has_section("server")
    assert not ini.has_section("DEFAULT")
    assert not ini.has_section("nope")


def test_values_and_inline_comments(ini):
    assert ini.get("server", "host") == "example.org"
    assert ini.get("server", "port") == "8080"


def test_keys_are_case_insensitive_by_default(ini):
    assert ini.get("server", "PORT") == "8080"
    assert ini.keys("server") == ["host", "port", "root", "url", "ratio", "tags", "base", "debug"]


def test_case_sensitive_keys():
    ini = parse_ini("[s]\nKey = 1\nkey = 2\n", case_sensitive=True)
    assert ini.get("s", "Key") == "1"
    assert ini.get("s", "key") == "2"


def test_defaults_are_inherited_and_overridden(ini):
    assert ini.get("client", "base") == "/srv"
    assert ini.get("client", "debug") == "YES"
    assert ini.get("server", "debug") == "off"


def test_interpolation(ini):
    assert ini.get("server", "root") == "/srv/www"
    assert ini.get("server", "url") == "http://example.org:8080/"
    assert ini.get("client", "server") == "http://example.org:8080/"
    assert ini.get("client", "price") == "$5"
    assert ini.get("server", "url", raw=True) == "http://${host}:${port}/"


def test_quoted_values_keep_spaces_and_semicolons(ini):
    assert ini.get("client", "greeting") == "  hello ; world  "


def test_continuation_lines(ini):
    assert ini.get("server", "tags") == "web, api,\ninternal"
    assert ini.get_list("server", "tags") == ["web", "api", "internal"]


def test_typed_getters(ini):
    assert ini.get_int("server", "port") == 8080
    assert ini.get_float("server", "ratio") == 0.75
    assert ini.get_bool("client", "debug") is True
    assert ini.get_bool("server", "debug") is False
    assert ini.get_list("client", "retries", separator=";") == ["3"]


@pytest.mark.parametrize("text, expected", [("1", True), ("On", True), ("true", True), ("no", False), ("0", False), ("OFF", False)])
def test_booleans(text, expected):
    assert parse_ini(f"[s]\nflag = {text}\n").get_bool("s", "flag") is expected


def test_bad_typed_values_name_the_key():
    ini = parse_ini("[s]\nn = many\nflag = perhaps\n")
    with pytest.raises(IniError, match="s.n: expected an integer, not 'many'"):
        ini.get_int("s", "n")
    with pytest.raises(IniError, match="expected a boolean"):
        ini.get_bool("s", "flag")
    with pytest.raises(IniError, match="expected a number"):
        ini.get_float("s", "flag")


def test_defaults_for_missing_keys(ini):
    assert ini.get("server", "missing", "fallback") == "fallback"
    assert ini.get_int("server", "missing", 5) == 5
    assert ini.get_bool("server", "missing", None) is None
    assert ini.get_list("server", "missing", []) == []
    with pytest.raises(IniError, match="no key 'missing' in section 'server'"):
        ini.get("server", "missing")
    with pytest.raises(IniError, match="no section 'nope'"):
        ini.get("nope", "key")


@pytest.mark.parametrize(
    "text, message",
    [
        ("[s]\na = ${missing}\n", "refers to a missing key"),
        ("[s]\na = ${other:x}\n", "missing section 'other'"),
        ("[s]\na = ${b}\nb = ${a}\n", "deeper than 10 levels"),
    ],
)
def test_bad_references(text, message):
    with pytest.raises(IniError, match=message):
        parse_ini(text).get("s", "a")


@pytest.mark.parametrize(
    "text, message, line",
    [
        ("key = 1\n", "key 'key' before any section", 1),
        ("[s]\n\n[]\n", "empty section name", 3),
        ("[s]\n[s]\n", "duplicate section 's'", 2),
        ("[s]\na = 1\nA = 2\n", "duplicate key 'A'", 3),
        ("[s]\njust words\n", "expected 'key = value'", 2),
        ("[s]\n= 1\n", "empty key", 2),
        ("[s\n", "bad section header", 1),
        ("[s]\n  indented\n", "continues nothing", 2),
        ("[s]\na = 1\n\n  late\n", "continues nothing", 4),
        ('[s]\na = "open\n', "unterminated quoted value", 2),
        ('[s]\na = "x" y\n', "text after a quoted value", 2),
    ],
)
def test_syntax_errors_name_the_line(text, message, line):
    with pytest.raises(IniError, match=message) as caught:
        parse_ini(text)
    assert caught.value.line == line


def test_comments_and_separators():
    ini = parse_ini("# comment\n[s]\n; another\nurl = http://x:1/#top\ntime: 10:30\nempty =\n")
    assert ini.get("s", "url") == "http://x:1/#top"
    assert ini.get("s", "time") == "10:30"
    assert ini.get("s", "empty") == ""


def test_editing():
    ini = IniFile()
    ini.add_section("app")
    ini.set("app", "Name", "demo")
    ini.set("app", "workers", 4)
    assert ini.get("app", "name") == "demo"
    assert ini.get_int("app", "workers") == 4
    assert ini.remove("app", "NAME")
    assert not ini.remove("app", "name")
    assert not ini.has_key("app", "name")
    with pytest.raises(IniError):
        ini.add_section("app")
    with pytest.raises(IniError):
        ini.set("nope", "a", "b")


def test_as_dict(ini):
    data = ini.as_dict()
    assert data["client"]["server"] == "http://example.org:8080/"
    assert data["client"]["base"] == "/srv"
    assert ini.as_dict(raw=True)["client"]["server"] == "${server:url}"


def test_to_string_round_trips(ini):
    again = parse_ini(ini.to_string())
    assert again.as_dict(raw=True) == ini.as_dict(raw=True)
    assert again.get("client", "greeting") == "  hello ; world  "


def test_to_string_layout():
    ini = IniFile()
    ini.add_section("a")
    ini.set("a", "x", "1")
    ini.set("a", "lines", "one\ntwo")
    ini.add_section("b")
    assert ini.to_string() == "[a]\nx = 1\nlines = one\n    two\n\n[b]\n"
