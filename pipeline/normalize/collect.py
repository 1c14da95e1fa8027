"""Merge normalized records from any source into one card per oracle_id.

Printings, languages and per-face records (MTGJSON sides) of the same oracle_id are merged;
Oracle fields come from the first record seen for each face. Rulings are deduplicated on
(oracle_id, published_at, comment). Objects outside ``cards`` are deduplicated on
(oracle_id or name, layout).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.normalize.model import OracleCard, OtherObject, Ruling, sort_colors
from pipeline.sources.errors import SourceError


@dataclass
class CardCollection:
    """The normalized content of one refresh.

    ``cards``: oracle_id → OracleCard; ``other``: non-card objects; ``rulings``: deduplicated
    rulings in first-seen order; ``text_conflicts``: oracle_ids seen with two different Oracle
    texts for the same face (the first text is kept; counted for the run summary); ``flags``:
    records quarantined and values ignored by validation (``Flagged``, in reading order), written
    to ``data_quality`` by the build; ``resolved``: oracle ids that received a record without an
    oracle id (matched by face name in :meth:`finish`).
    """

    cards: dict[str, OracleCard] = field(default_factory=dict)
    other: dict[tuple, OtherObject] = field(default_factory=dict)
    rulings: dict[tuple, Ruling] = field(default_factory=dict)
    text_conflicts: set[str] = field(default_factory=set)
    flags: list = field(default_factory=list)  # pipeline.sources.records.Flagged: quarantined records, ignored values
    resolved: set[str] = field(default_factory=set)  # oracle ids that received a record without one (finish)
    #: when a list: every face :meth:`add_card` records (a face's name and texts are final when first seen),
    #: for a reader that hands them to the parse workers as it goes (pipeline.normalize.ingest.collect_sources)
    new_faces: list | None = None
    _faces: dict[str, dict[int, object]] = field(default_factory=dict)
    _unresolved: list[tuple[OracleCard, list[Ruling], str]] = field(default_factory=list)

    def add_card(self, card: OracleCard) -> None:
        """Add a whole card (Scryfall object) or one face of it (MTGJSON record), merging by oracle_id."""
        known = self.cards.get(card.oracle_id)
        if known is None:
            self.cards[card.oracle_id] = card
            self._faces[card.oracle_id] = {f.face_index: f for f in card.faces}
            if self.new_faces is not None:
                self.new_faces.extend(self._faces[card.oracle_id].values())
            return
        merge_printings(known, card)
        faces = self._faces[card.oracle_id]
        for face in card.faces:
            seen = faces.get(face.face_index)
            if seen is None:
                faces[face.face_index] = face
                if self.new_faces is not None:
                    self.new_faces.append(face)
            elif seen.oracle_text != face.oracle_text or seen.name != face.name:
                self.text_conflicts.add(card.oracle_id)
        for kw in card.keywords:
            if kw not in known.keywords:
                known.keywords.append(kw)
        if known.source_produced_mana is None and card.source_produced_mana is not None:
            known.source_produced_mana = card.source_produced_mana
            known.source_produced_mana_at = card.source_produced_mana_at

    def add_flag(self, flag) -> None:
        """Keep a reader's :class:`pipeline.sources.records.Flagged` (a quarantined record or an ignored value)."""
        self.flags.append(flag)

    def quarantined(self) -> list:
        """The flags that left a record out (action 'quarantined'), in reading order."""
        return [f for f in self.flags if f.issue.action == "quarantined"]

    def add_unresolved(self, card: OracleCard, rulings: list[Ruling], where: str) -> None:
        """Keep a record that has no oracle_id (MTGJSON ``reversible_card``) to resolve by face name at the end."""
        self._unresolved.append((card, rulings, where))

    def add_other(self, obj: OtherObject) -> None:
        """Add a non-card object (token, emblem, art card, plane, scheme, vanguard, unknown layout)."""
        self.other.setdefault((obj.oracle_id or obj.name, obj.layout), obj)

    def add_ruling(self, ruling: Ruling) -> None:
        """Add a ruling; an identical (oracle_id, published_at, comment) ruling is kept once."""
        self.rulings.setdefault((ruling.oracle_id, ruling.published_at, ruling.comment), ruling)

    def finish(self) -> None:
        """Order faces, re-index them from 0, derive card-level name/cost/type line, resolve unresolved records.

        Raises SourceError for a record without oracle_id whose face name matches no card.
        """
        by_face_name = {}
        for oracle_id, faces in self._faces.items():
            card = self.cards[oracle_id]
            ordered = [faces[i] for i in sorted(faces)]
            for i, face in enumerate(ordered):
                face.face_index = i
            card.faces = ordered
            if card.type_line is None:  # MTGJSON: card-level fields from the faces
                card.name = " // ".join(f.name for f in ordered)
                costs = [f.mana_cost for f in ordered if f.mana_cost]
                card.mana_cost = " // ".join(costs) if costs else None
                card.type_line = " // ".join(f.type_line or "" for f in ordered)
                card.colors = sort_colors(c for f in ordered for c in (f.colors or []))
            for face in ordered:
                by_face_name.setdefault(face.name, oracle_id)
        for card, rulings, where in self._unresolved:
            oracle_id = by_face_name.get(card.faces[0].name)
            if oracle_id is None:
                raise SourceError(where, f"card {card.faces[0].name!r} has no oracle id and matches no other card",
                                  field="identifiers.scryfallOracleId")
            merge_printings(self.cards[oracle_id], card)
            self.resolved.add(oracle_id)
            for r in rulings:
                self.add_ruling(Ruling(oracle_id, r.source, r.published_at, r.comment))
        self._unresolved.clear()
        fill_set_types(self.cards.values())


def merge_printings(known: OracleCard, card: OracleCard) -> None:
    """Merge ``card``'s printings and leadership skills into ``known`` (same oracle card).

    A printing already known (same set, collector number, language) is another face record
    of it (MTGJSON): :meth:`Printing.merge_face` folds it in. Leadership skills are OR-ed.
    """
    for key, printing in card.printings.items():
        seen = known.printings.get(key)
        if seen is None:
            known.printings[key] = printing
        else:
            seen.merge_face(printing)
    if card.leadership is not None:
        merged = dict(known.leadership or {})
        for skill, value in card.leadership.items():
            merged[skill] = merged.get(skill, False) or value
        known.leadership = merged


def fill_set_types(cards) -> None:
    """Give printings without a set type the type another printing of the same set carries.

    A set's type is a fact of the set: Scryfall's 2019 objects carry ``set_type`` on a few
    objects only (the newest sets); every printing of such a set takes it. Sets no object
    types stay NULL.
    """
    types: dict[str, str] = {}
    for card in cards:
        for printing in card.printings.values():
            if printing.set_type is not None:
                types.setdefault(printing.set_code, printing.set_type)
    if not types:
        return
    for card in cards:
        for printing in card.printings.values():
            if printing.set_type is None:
                printing.set_type = types.get(printing.set_code)
