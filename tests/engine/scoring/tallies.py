"""What the scoring tests share: the two leftover-gem rules and a hand of tile gems by count."""

from engine.options import Options

ANY = Options(leftover_gems="any")
SAME_TYPE = Options(leftover_gems="same_type")


def tiles(**counts: int) -> list[str]:
    """tiles(amethyst=2, rainbow=1) -> ["amethyst", "amethyst", "rainbow"]."""
    return [gem for gem, n in counts.items() for _ in range(n)]
