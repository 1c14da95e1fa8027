"""Language codes: Scryfall's ``lang`` codes, and MTGJSON's ``foreignData.language`` names mapped to them.

Scryfall's card objects carry a short code (``lang``: ``en``, ``de``, ``ja``, ``zhs``, …; its API
documentation lists them). MTGJSON names the language instead (``"German"``,
``"Portuguese (Brazil)"``, ``"Chinese Simplified"``); :data:`MTGJSON_LANGUAGES` maps every name
MTGJSON v5 uses to Scryfall's code, so ``card_names.lang`` has one spelling whatever the source.
"""

from __future__ import annotations

#: MTGJSON v5 ``foreignData[].language`` → Scryfall ``lang`` code.
MTGJSON_LANGUAGES: dict[str, str] = {
    "English": "en",
    "Spanish": "es",
    "French": "fr",
    "German": "de",
    "Italian": "it",
    "Portuguese (Brazil)": "pt",
    "Portuguese": "pt",
    "Japanese": "ja",
    "Korean": "ko",
    "Russian": "ru",
    "Chinese Simplified": "zhs",
    "Chinese Traditional": "zht",
    "Hebrew": "he",
    "Latin": "la",
    "Ancient Greek": "grc",
    "Arabic": "ar",
    "Sanskrit": "sa",
    "Phyrexian": "ph",
}


def scryfall_code(mtgjson_language: str) -> str:
    """Scryfall's code for an MTGJSON language name (``"German"`` → ``"de"``).

    Raises KeyError naming the language when MTGJSON uses a name this table does not know.
    """
    try:
        return MTGJSON_LANGUAGES[mtgjson_language]
    except KeyError:
        raise KeyError(f"unknown MTGJSON language {mtgjson_language!r}") from None
