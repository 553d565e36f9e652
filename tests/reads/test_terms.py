"""The tokenizer and the path readings `route` applies to a task's words."""

import pytest

from headwater.reads.terms import holds, read_path, readings, terms


def test_terms_split_on_every_non_alphanumeric_keep_two_characters_lowercase_and_deduplicate():
    assert terms("add rate limiting to src/ingest/rate_limit.rs") == (
        "add", "rate", "limiting", "to", "src", "ingest", "limit", "rs")
    assert terms("A b C-d") == ()
    assert terms("Why WHY why? Über-fast") == ("why", "über", "fast")


def test_holds_is_a_whole_token_match_so_api_is_not_in_rapid():
    assert holds("the ingest API", "api")
    assert not holds("rapid delivery", "api")


@pytest.mark.parametrize("word", [["Look", "at", "tools/x.sh."][-1], "tools/x.sh:12", "(tools/x.sh),",
                                  "tools/x.sh's", "tools/x.sh\u2019s", "tools/x.sh:12:3."])
def test_a_path_with_punctuation_a_line_or_a_possessive_is_read_as_the_path(word):
    assert read_path(word, lambda p: p == "tools/x.sh") == "tools/x.sh"


def test_an_existing_entry_is_a_surer_reading_than_one_a_wildcard_would_take():
    assert read_path("tools/x.sh:12", lambda p: p == "tools/x.sh", lambda p: p.startswith("tools/")) == "tools/x.sh"


def test_a_file_really_named_with_a_colon_is_read_as_written_when_it_exists():
    assert read_path("tools/a:b.sh", lambda p: p == "tools/a:b.sh") == "tools/a:b.sh"


def test_a_url_names_no_path():
    assert readings("https://example.com/tools/x.sh") == ()
    assert read_path("(https://example.com/x).", lambda p: True) is None


def test_an_unknown_word_with_nothing_to_strip_is_read_as_a_new_path_and_one_with_something_is_not():
    assert read_path("src/new_file.py", lambda p: False) == "src/new_file.py"
    assert read_path("src/new_file.py.", lambda p: False) is None


def test_readings_are_normalized_and_an_escape_above_the_root_is_dropped():
    assert readings("./tools//x.sh") == ("tools/x.sh",)
    assert readings("../x.sh") == ()
