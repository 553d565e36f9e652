"""The parts of HW-DR-0050's measurement (tests/benchmarks/route_anchor.py) that need no corpus:
where a link lands, which texts become a page's anchor field, and route's constants put back."""

from types import SimpleNamespace

import pytest

from headwater.corpus.body import Link
from headwater.reads.route import abstention, rank
from headwater.reads.route.tokens import ENGLISH_STOP_WORDS, Tokenizer

CONTENT = "site/content"


@pytest.fixture
def anchor(benchmark_script):
    return benchmark_script("route_anchor")


def _doc(path: str, body: str = "", links: tuple[tuple[str, str], ...] = ()) -> SimpleNamespace:
    found = tuple(Link(href, text, 1, 1) for text, href in links)
    return SimpleNamespace(path=path, body_text=body, read_body=lambda: SimpleNamespace(links=found))


def _snapshot(*docs: SimpleNamespace) -> SimpleNamespace:
    return SimpleNamespace(census=SimpleNamespace(documents=docs),
                           declaration=SimpleNamespace(site_roots=(), corpus_root=CONTENT))


PAGES = (f"{CONTENT}/state/_index.md", f"{CONTENT}/state/howto.md", f"{CONTENT}/pubsub/howto.md",
         f"{CONTENT}/reference/kafka.md", "keps/sig-node/42-sidecars/README.md")


def test_a_hugo_ref_lands_beside_the_page_first_then_on_the_one_page_whose_path_ends_so(anchor):
    resolver = anchor.Resolver(_snapshot(*map(_doc, PAGES)))
    here = _doc(f"{CONTENT}/pubsub/intro.md")
    assert resolver.hugo(here, "howto.md") == f"{CONTENT}/pubsub/howto.md"
    assert resolver.hugo(here, "kafka.md#binding-support") == f"{CONTENT}/reference/kafka.md"
    assert resolver.hugo(here, "state") == f"{CONTENT}/state/_index.md"
    assert resolver.hugo(here, "/state/howto.md") == f"{CONTENT}/state/howto.md"


def test_a_hugo_ref_to_a_name_two_pages_share_or_to_a_fragment_alone_lands_nowhere(anchor):
    resolver = anchor.Resolver(_snapshot(*map(_doc, PAGES)))
    elsewhere = _doc(f"{CONTENT}/reference/intro.md")
    assert resolver.hugo(elsewhere, "howto.md") is None
    assert resolver.hugo(elsewhere, "#part") is None


def test_a_link_to_a_repository_folder_on_github_lands_on_its_readme(anchor):
    resolver = anchor.Resolver(_snapshot(*map(_doc, PAGES)))
    here = _doc("keps/sig-node/7-other/README.md")
    url = "https://github.com/kubernetes/enhancements/tree/master/keps/sig-node/42-sidecars#risks"
    assert resolver.markdown(here, url) == "keps/sig-node/42-sidecars/README.md"
    assert resolver.markdown(here, "../42-sidecars") == "keps/sig-node/42-sidecars/README.md"
    assert resolver.markdown(here, "https://example.com/keps/sig-node/42-sidecars") is None


def test_a_page_s_links_to_itself_and_links_whose_text_is_a_url_give_no_anchor_text(anchor):
    source = _doc(f"{CONTENT}/pubsub/howto.md",
                  body='See [the Kafka broker]({{< ref "kafka.md" >}}) and [this page]({{< ref howto.md >}}).',
                  links=(("https://x.io", "https://x.io"), ("kafka spec", "../reference/kafka.md")))
    texts = anchor.anchor_texts(_snapshot(source, *(_doc(p) for p in PAGES if p != source.path)))
    assert texts == {f"{CONTENT}/reference/kafka.md": ["kafka spec", "the Kafka broker"]}


def test_generic_link_words_weigh_nothing_in_the_anchor_field(anchor, monkeypatch):
    monkeypatch.setattr(anchor, "anchor_texts", lambda snapshot: {"a.md": ["click here", "the docs", "Kafka brokers"]})
    assert anchor.anchor_counts(None, Tokenizer(ENGLISH_STOP_WORDS)) == {"a.md": {"kafka": 1, "broker": 1}}


def test_route_s_field_constants_are_put_back_after_a_run_with_the_anchor_field(anchor):
    before = (rank.FIELDS, dict(rank.WEIGHTS), rank.UNVOUCHED, rank.UNVOUCHED_BITS, rank._pseudo, abstention.NAMING)
    with anchor.anchored(anchor.Setting("name", 0.5)):
        assert rank.FIELDS[-2:] == ("anchor", "lead") and "anchor" in abstention.NAMING
        assert rank.WEIGHTS["anchor"] == 0.5 and "anchor" not in rank.UNVOUCHED
    with anchor.anchored(anchor.Setting("rank", 1.0)):
        assert "anchor" in rank.UNVOUCHED and "anchor" not in abstention.NAMING
    after = (rank.FIELDS, dict(rank.WEIGHTS), rank.UNVOUCHED, rank.UNVOUCHED_BITS, rank._pseudo, abstention.NAMING)
    assert after == before
