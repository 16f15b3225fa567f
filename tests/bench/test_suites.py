"""The bench's suites (xwcp/bench/suites.py): every suite resolves to existing files; the scaling grids are proper
crosswords."""

from __future__ import annotations

from xwcp import bench


def test_suites_resolve_to_existing_files():
    root = bench.repo_root()
    vanbeek = bench.suite_instances("vanbeek72", root=root)
    assert len(vanbeek) == 72 and all(i.path.is_file() for i in vanbeek)
    assert vanbeek[0].min_score == 0 and vanbeek[0].words.path.endswith("scowl-english-55.words.txt")
    assert bench.suite_instances("vanbeek72-ukacd", root=root)[0].words.path.endswith(".words.txt")
    herald = bench.suite_instances("herald15", root=root)
    assert [i.name for i in herald] == [f"15.{k:02d}" for k in range(1, 11)] and herald[0].words.path is None
    assert [i.name for i in bench.suite_instances("herald21", root=root)][-1] == "21.10"
    xcsp = bench.suite_instances("xcsp", root=root)
    n_files = sum(1 for p in (root / "bench" / "xcsp").iterdir() if p.name.endswith(bench.XCSP_SUFFIXES))
    assert len(xcsp) == n_files >= 15 and all(i.is_xcsp for i in xcsp)
    assert all(i.path.parent == root / "models" for i in bench.suite_instances("stock", root=root))
    scaling = bench.suite_instances("scaling", root=root)
    n_grids = len(list((root / "bench" / "scaling").glob("*.txt")))
    assert n_grids >= 10 and len(scaling) == len(bench.SCALING_LIST_SIZES) * n_grids
    assert {i.words.top_n for i in scaling} == set(bench.SCALING_LIST_SIZES)


def test_scaling_grids_are_proper_crosswords():
    """Every white cell is in an across and a down slot of 3+ letters; blocked grids are symmetric."""
    from xwcp.model import find_slots, read_grid

    sides = []
    for path in sorted((bench.repo_root() / "bench" / "scaling").glob("*.txt")):
        grid = read_grid(path)
        slots = find_slots(grid)
        white = {cell for cell, ch in enumerate(grid.cells) if ch != "#"}
        for direction in ("A", "D"):
            assert {c for s in slots if s.direction.letter == direction for c in s.cells} == white, path.name
        assert min(s.length for s in slots) >= 3, path.name
        assert grid.cells == grid.cells[::-1], path.name
        sides.append((path.stem.split("-")[0], grid.width))
    assert {side for kind, side in sides if kind == "open"} == {4, 5, 6, 7}
    assert {side for kind, side in sides if kind == "blocked"} == {5, 7, 9, 11, 13, 15}
