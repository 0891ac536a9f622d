"""Finding 10 (low): a search of 999 words answered 500 ("Expression tree is too large").

Beyond the word cap (8) the search is refused with 422 naming `search`; 8 words are fine."""
import urllib.parse

import pytest

from conftest import unchanged


@pytest.mark.parametrize("words,expected", [(8, 200), (999, 422), (5000, 422)])
def test_search_words_capped(shop, words, expected):
    query = urllib.parse.quote(" ".join(f"w{i}" for i in range(words)))
    with unchanged(shop):
        reply = shop.call("GET", f"/api/v1/products?search={query}")
    print(f"\nsearch of {words} words -> {reply.status} {reply.body[:100]!r}")
    assert reply.status == expected, f"a search of {words} words answered {reply.status}: {reply!r}"
    if expected == 422:
        assert reply.problem_field == "search", reply
    assert shop.call("GET", "/api/v1/products?search=Espresso").json()["total"] == 1
