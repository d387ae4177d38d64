"""The byte tokenizer with a real Jinja chat template (`--chat-template FILE`), as the tokens path's
tests use it: the templates in test/fixtures/chat-templates behave as the common ones do."""

import os

import pytest

from conftest import REPO_ROOT
from ssr_trainer.chat_template import ChatTemplate
from ssr_trainer.tokenizer import ByteTokenizer
from test_service import TINY, call, start

TEMPLATES = os.path.join(REPO_ROOT, "test", "fixtures", "chat-templates")
pytest.importorskip("jinja2")


def tokenizer(name):
    return ByteTokenizer(ChatTemplate.from_file(os.path.join(TEMPLATES, name)))


CALL = {"id": "c0", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}


def test_special_strings_become_their_ids_and_chatml_separators_stay():
    tok = tokenizer("chatml.jinja")
    ids = tok.apply_chat_template([{"role": "user", "content": "hi"}], add_generation_prompt=True)
    newline = ord("\n")
    assert ids == [tok.im_start_id, *b"user\nhi", tok.im_end_id, newline, tok.im_start_id, *b"assistant\n"]


def test_qwen3_like_strips_think_from_turns_before_the_last_query():
    tok = tokenizer("qwen3-like.jinja")
    reply = {"role": "assistant", "content": "<think>\nplan\n</think>\n\nok"}
    last = tok.decode(tok.apply_chat_template([{"role": "user", "content": "a"}, reply]), skip_special_tokens=False)
    assert "<think>\nplan\n</think>" in last
    earlier = tok.decode(tok.apply_chat_template([{"role": "user", "content": "a"}, reply, {"role": "user", "content": "b"}]), skip_special_tokens=False)
    assert "plan" not in earlier and "<|im_start|>assistant\nok<|im_end|>\n" in earlier


def test_a_template_error_is_a_value_error_naming_the_template():
    with pytest.raises(ValueError, match="does not compile"):
        ChatTemplate("{% for %}")
    with pytest.raises(ValueError, match="chat template: no system"):
        ByteTokenizer(ChatTemplate("{{ raise_exception('no system') }}")).apply_chat_template([{"role": "user", "content": "x"}])


def test_the_service_renders_with_chat_template(tmp_path):
    path = os.path.join(TEMPLATES, "qwen3-like.jinja")
    process, base = start(["--model", "tiny", "--model-config", TINY, "--chat-template", path], tmp_path)
    try:
        messages = [{"role": "user", "content": "u"}, {"role": "assistant", "content": "", "tool_calls": [CALL]},
                    {"role": "tool", "content": "a.py", "tool_call_id": "c0"}]
        status, body = call(base, "/tokenize", {"messages": messages, "add_generation_prompt": True})
        assert status == 200
        assert body["tokens"] == tokenizer("qwen3-like.jinja").apply_chat_template(messages, add_generation_prompt=True)
        assert ByteTokenizer().decode(body["tokens"], skip_special_tokens=False).endswith(
            "<|im_start|>user\n<tool_response>\na.py\n</tool_response><|im_end|>\n<|im_start|>assistant\n")
    finally:
        process.terminate()
        process.wait(timeout=10)
