"""Normalize source records (Scryfall, MTGJSON) into one model: one :class:`OracleCard` per oracle_id."""

from pipeline.normalize.model import Face, OracleCard, OtherObject, Ruling, SourceInfo
from pipeline.normalize.collect import CardCollection

__all__ = ["Face", "OracleCard", "OtherObject", "Ruling", "SourceInfo", "CardCollection"]
