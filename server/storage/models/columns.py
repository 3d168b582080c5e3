"""The column types the tables share: UTC timestamps on both backends, JSON."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field


class UTCDateTime(sa.types.TypeDecorator):
    """A timestamp that goes in and comes out as aware UTC, whatever the backend keeps."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: pass an aware UTC time")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def time_column(nullable: bool = True, index: bool = False) -> Any:
    if nullable:
        return Field(default=None, sa_column=sa.Column(UTCDateTime(), nullable=True, index=index))
    return Field(default_factory=utcnow, sa_column=sa.Column(UTCDateTime(), nullable=False))


def json_column(nullable: bool = False) -> Any:
    return Field(default=None, sa_column=sa.Column(sa.JSON(), nullable=nullable))
