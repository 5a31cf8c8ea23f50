"""Pictures and replays: SVG structure, PNG pixels, GIF frames, the HTML viewer's data, the CLI."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from heurist.cli.main import main
from heurist.domains import get_domain
from heurist.domains.blocksworld.drawing import IN_PLACE, OUT_OF_PLACE, blocks_in_place
from heurist.domains.blokus import drawing as blokus_drawing
from heurist.domains.klotski import drawing as klotski_drawing
from heurist.domains.klotski.board import BIG, HORIZONTAL, SHAPE_SIZE, SINGLE, VERTICAL
from heurist.errors import InputError
from heurist.render import FINAL_MILLISECONDS, MOVE_MILLISECONDS, render_plan, render_state
from heurist.render.raster import to_image
from heurist.scene import to_svg
from heurist.search import search

DATA = Path(__file__).resolve().parents[1] / "data"
SVG = "{http://www.w3.org/2000/svg}"
KLOTSKI_CLASSIC = DATA / "hrd" / "w23_s24_char" / "testhrd_med1.txt"
KLOTSKI_GOAL_BOARD = DATA / "hrd" / "f24_w25_goal" / "easy3.txt"
BLOCKS = DATA / "blocksworld" / "probA06.bwp"
BLOKUS_COVER = ("small_set.txt", (10, 10), (3, 3), "[(2,2), (5,5), (6,7)]")


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def classes(root: ElementTree.Element, tag: str, word: str) -> list[ElementTree.Element]:
    return [e for e in root.iter(SVG + tag) if word in (e.get("class") or "").split()]


@pytest.fixture(scope="module")
def klotski():
    domain = get_domain("klotski")
    problem = domain.load(KLOTSKI_GOAL_BOARD)
    result = search(problem, "astar", domain.heuristics.resolve("manhattan"))
    assert result.solved
    return domain, problem, result


@pytest.fixture(scope="module")
def blocks():
    domain = get_domain("blocksworld")
    problem = domain.load(BLOCKS)
    result = search(problem, "astar", domain.heuristics.resolve(domain.default_heuristic))
    assert result.solved
    return domain, problem, result


def blokus_problem(flip_targets: str | None = None):
    pieces, size, start, targets = BLOKUS_COVER
    domain = get_domain("blokus")
    return domain, domain.load(pieces, puzzle="cover", board_size=size, start=start, targets=targets)


@pytest.fixture(scope="module")
def blokus():
    domain, problem = blokus_problem()
    result = search(problem, "astar", domain.heuristics.resolve(domain.default_heuristic))
    assert result.solved
    return domain, problem, result


# ----- Klotski --------------------------------------------------------------------------------

def test_klotski_svg_has_one_piece_per_piece_and_the_exit(tmp_path):
    problem = get_domain("klotski").load(KLOTSKI_CLASSIC)
    path = tmp_path / "board.svg"
    render_state(get_domain("klotski"), problem, problem.initial_state, path)
    root = ElementTree.parse(path).getroot()
    geometry = problem.geometry
    expected_width = 2 * (klotski_drawing.WALL + 4) + geometry.width * klotski_drawing.CELL
    assert float(root.get("width")) == expected_width
    pieces = geometry.pieces(problem.initial_state)
    for shape, role in klotski_drawing.SHAPE_ROLE.items():
        drawn = classes(root, "rect", role)
        assert len(drawn) == sum(1 for s, _ in pieces if s == shape)
        assert {rect.get("fill") for rect in drawn} <= {klotski_drawing.SHAPE_COLOUR[shape]}
    assert len(classes(root, "text", "exit")) == 1
    assert len(classes(root, "rect", "exit-target")) == 1


def klotski_cell_colours(image: Image.Image, problem, left: float, top: float) -> list[tuple[int, int, int]]:
    geometry, cell = problem.geometry, klotski_drawing.CELL
    return [
        image.getpixel((int(left + (c + 0.5) * cell), int(top + (r + 0.5) * cell)))
        for r in range(geometry.height)
        for c in range(geometry.width)
    ]


def test_klotski_png_colours_every_covered_cell_by_its_piece_kind(tmp_path):
    problem = get_domain("klotski").load(KLOTSKI_CLASSIC)
    path = tmp_path / "board.png"
    render_state(get_domain("klotski"), problem, problem.initial_state, path)
    image = Image.open(path).convert("RGB")
    geometry = problem.geometry
    assert image.width == 2 * (klotski_drawing.WALL + 4) + geometry.width * klotski_drawing.CELL
    offset = klotski_drawing.WALL + 4
    colours = klotski_cell_colours(image, problem, offset, offset)
    pieces = geometry.pieces(problem.initial_state)
    for shape in (BIG, VERTICAL, HORIZONTAL, SINGLE):
        rows, cols = SHAPE_SIZE[shape]
        expected = rows * cols * sum(1 for s, _ in pieces if s == shape)
        assert colours.count(rgb(klotski_drawing.SHAPE_COLOUR[shape])) == expected, shape
    empty = geometry.cells - geometry.occupied(problem.initial_state).bit_count()
    assert colours.count(rgb(klotski_drawing.BOARD_COLOUR)) == empty == 2
    assert len(image.getcolors(1 << 16)) > 20  # not blank


@settings(max_examples=25, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=1 << 16), max_size=40))
def test_klotski_pictures_match_any_reachable_board(choices):
    """After any random walk, the SVG has one piece per piece and the PNG colours each cell by its kind."""
    problem = get_domain("klotski").load(KLOTSKI_CLASSIC)
    state = problem.initial_state
    for choice in choices:
        moves = list(problem.successors(state))
        state = moves[choice % len(moves)][1]
    scene = klotski_drawing.draw(problem, [state], 0)
    root = ElementTree.fromstring(to_svg(scene))
    image = to_image(scene)
    offset = klotski_drawing.WALL + 4
    colours = klotski_cell_colours(image, problem, offset, offset)
    geometry = problem.geometry
    for shape, role in klotski_drawing.SHAPE_ROLE.items():
        anchors = [anchor for s, anchor in geometry.pieces(state) if s == shape]
        assert len(classes(root, "rect", role)) == len(anchors)
        covered = sum(geometry.piece_cells[shape][anchor].bit_count() for anchor in anchors)
        assert colours.count(rgb(klotski_drawing.SHAPE_COLOUR[shape])) == covered


def test_klotski_goal_board_is_drawn_beside_the_board(tmp_path, klotski):
    _, problem, result = klotski
    path = tmp_path / "plan.svg"
    render_plan(get_domain("klotski"), problem, result.states, result.statistics, path)
    root = ElementTree.parse(path).getroot()
    panels = classes(root, "g", "panel")
    assert len(panels) == 2
    assert [len(classes(panel, "rect", "piece")) for panel in panels] == [
        len(problem.geometry.pieces(problem.goal_state))
    ] * 2
    assert not classes(root, "text", "exit")  # a goal board, not the exit
    assert "move" in " ".join(t.text for t in classes(root, "text", "caption"))
    assert len(classes(root, "rect", "moved")) == 1  # the last move's piece is outlined


def test_gif_has_one_frame_per_state_and_pauses_on_the_last(tmp_path, klotski):
    _, problem, result = klotski
    path = tmp_path / "plan.gif"
    render_plan(get_domain("klotski"), problem, result.states, result.statistics, path)
    image = Image.open(path)
    assert image.n_frames == len(result.states)
    durations, sizes = [], set()
    for index in range(image.n_frames):
        image.seek(index)
        durations.append(image.info["duration"])
        sizes.add(image.size)
    assert durations == [MOVE_MILLISECONDS] * (len(result.states) - 1) + [FINAL_MILLISECONDS]
    assert len(sizes) == 1
    assert image.info.get("loop") == 0


def test_outputs_are_deterministic(tmp_path, klotski):
    _, problem, result = klotski
    for suffix in (".svg", ".png", ".gif", ".html"):
        first, second = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
        render_plan(get_domain("klotski"), problem, result.states, None, first)
        render_plan(get_domain("klotski"), problem, result.states, None, second)
        assert first.read_bytes() == second.read_bytes(), suffix


# ----- the HTML viewer ------------------------------------------------------------------------

def viewer_data(path: Path) -> dict:
    text = path.read_text()
    match = re.search(r'<script type="application/json" id="plan-data">(.*?)</script>', text, re.S)
    return json.loads(match.group(1))


def test_viewer_embeds_every_frame_and_needs_no_network(tmp_path, klotski):
    domain, problem, result = klotski
    path = tmp_path / "viewer.html"
    heuristic = domain.heuristics.resolve("manhattan")
    render_plan(get_domain("klotski"), problem, result.states, result.statistics, path, heuristic=heuristic, optimal=True)
    text = path.read_text()
    without_namespaces = re.sub(r'xmlns=\\?"http://www\.w3\.org/2000/svg\\?"', "", text)
    assert "http://" not in without_namespaces and "https://" not in without_namespaces
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", text)
    data = viewer_data(path)
    frames = data["frames"]
    assert len(frames) == len(result.states)
    assert [frame["text"] for frame in frames] == [domain.format_state(problem, s) for s in result.states]
    assert [frame["goal"] for frame in frames] == [False] * (len(frames) - 1) + [True]
    assert [frame["cost"] for frame in frames] == list(range(len(frames)))
    assert [frame["h"] for frame in frames] == [heuristic(s, problem) for s in result.states]
    assert [frame["hStar"] for frame in frames] == list(range(len(frames) - 1, -1, -1))
    assert all(frame["h"] <= frame["hStar"] for frame in frames)  # manhattan is admissible
    assert data["totalCost"] == result.cost
    assert f"<th>expansions</th><td>{result.statistics.expansions}</td>" in text
    assert 'id="h-chart"' in text


def test_viewer_leaves_h_out_when_no_heuristic_is_given(tmp_path, klotski):
    _, problem, result = klotski
    path = tmp_path / "viewer.html"
    render_plan(get_domain("klotski"), problem, result.states, None, path)
    assert all(frame["h"] is None and frame["hStar"] is None for frame in viewer_data(path)["frames"])
    assert 'id="h-chart"' not in path.read_text()


# ----- Blocks World ---------------------------------------------------------------------------

def test_blocksworld_svg_shows_lettered_blocks_and_the_goal(tmp_path, blocks):
    _, problem, result = blocks
    path = tmp_path / "stacks.svg"
    render_state(get_domain("blocksworld"), problem, problem.initial_state, path)
    root = ElementTree.parse(path).getroot()
    now, goal = classes(root, "g", "panel")
    assert sorted(t.text for t in classes(now, "text", "block-label")) == sorted(problem.blocks)
    assert sorted(t.text for t in classes(goal, "text", "block-label")) == sorted(problem.blocks)
    placed = blocks_in_place(problem, problem.initial_state)
    assert len(classes(now, "rect", "in-place")) == len(placed)
    assert len(classes(now, "rect", "out-of-place")) == len(problem.blocks) - len(placed)
    assert len(classes(goal, "rect", "in-place")) == len(problem.blocks)
    assert len(classes(now, "text", "stack-number")) == problem.stack_count


def absolute_rects(element: ElementTree.Element, dx: float = 0.0, dy: float = 0.0, scale: float = 1.0):
    """(class, fill, x, y, width, height) of every rect, in the SVG's own pixels."""
    for child in element:
        if child.tag == SVG + "g":
            numbers = [float(n) for n in re.findall(r"-?[\d.]+", child.get("transform", ""))]
            inner_scale = numbers[2] if len(numbers) > 2 else 1.0
            yield from absolute_rects(child, dx + numbers[0] * scale, dy + numbers[1] * scale, scale * inner_scale)
        elif child.tag == SVG + "rect" and child.get("x") is not None:
            yield (
                child.get("class") or "", child.get("fill"),
                dx + float(child.get("x")) * scale, dy + float(child.get("y")) * scale,
                float(child.get("width")) * scale, float(child.get("height")) * scale,
            )


def test_blocksworld_png_colours_blocks_by_whether_they_are_in_place(tmp_path, blocks):
    _, problem, result = blocks
    for name, states in (("start", [problem.initial_state]), ("end", result.states)):
        svg, png = tmp_path / f"{name}.svg", tmp_path / f"{name}.png"
        render_plan(get_domain("blocksworld"), problem, states, None, svg)
        render_plan(get_domain("blocksworld"), problem, states, None, png)
        image = Image.open(png).convert("RGB")
        blocks = [rect for rect in absolute_rects(ElementTree.parse(svg).getroot()) if "block" in rect[0].split()]
        assert len(blocks) == 2 * len(problem.blocks)  # the state and the goal
        seen = {rgb(IN_PLACE): 0, rgb(OUT_OF_PLACE): 0}
        for _, fill, x, y, width, height in blocks:
            colour = image.getpixel((int(x + width * 0.2), int(y + height * 0.2)))
            assert colour == rgb(fill)
            seen[colour] += 1
        placed = len(blocks_in_place(problem, states[-1]))
        assert seen == {rgb(IN_PLACE): placed + len(problem.blocks), rgb(OUT_OF_PLACE): len(problem.blocks) - placed}
    assert placed == len(problem.blocks)  # the plan ends at the goal


# ----- Blokus ---------------------------------------------------------------------------------

def blokus_cell_pixel(problem, row: int, col: int, flip: bool, caption_height: float = 0) -> tuple[int, int]:
    cell, margin, rows = blokus_drawing.CELL, blokus_drawing.MARGIN, problem.board.rows
    shown_row = row if flip else rows - 1 - row
    return int(margin + (col + 0.2) * cell), int(caption_height + margin + (shown_row + 0.2) * cell)


def test_blokus_svg_has_every_tile_the_start_and_the_targets(tmp_path, blokus):
    _, problem, result = blokus
    path = tmp_path / "board.svg"
    render_plan(get_domain("blokus"), problem, result.states, result.statistics, path)
    root = ElementTree.parse(path).getroot()
    occupied = result.states[-1][0]
    assert len(classes(root, "rect", "tile")) == occupied.bit_count()
    assert len(classes(root, "circle", "target")) == len(problem.targets)
    assert len(classes(root, "circle", "covered")) == len(problem.targets)  # the goal covers them
    assert len(classes(root, "rect", "start")) == 1
    pieces_used = bin(result.states[-1][1]).count("1")
    assert len({rect.get("fill") for rect in classes(root, "rect", "tile")}) == pieces_used


def test_blokus_strategy_plans_render(tmp_path):
    from heurist.domains.blokus import mini_contest_search

    _, problem = blokus_problem()
    result = mini_contest_search(problem).result  # its states carry the search's own bookkeeping
    assert result.solved
    path = tmp_path / "contest.gif"
    render_plan(get_domain("blokus"), problem, result.states, result.statistics, path)
    assert Image.open(path).n_frames == len(result.states)
    page = tmp_path / "contest.html"
    heuristic = get_domain("blokus").heuristics.resolve("reach")
    render_plan(get_domain("blokus"), problem, result.states, result.statistics, page, heuristic=heuristic, optimal=True)
    frames = viewer_data(page)["frames"]
    assert frames[-1]["goal"] and frames[-1]["cost"] == result.cost
    assert all(frame["h"] <= frame["hStar"] for frame in frames)  # reach is admissible


@pytest.mark.parametrize("flip", [False, True])
def test_blokus_png_orientation_and_tiles(tmp_path, flip):
    _, problem = blokus_problem()
    path = tmp_path / "board.png"
    render_state(get_domain("blokus"), problem, problem.initial_state, path, flip=flip)
    image = Image.open(path).convert("RGB")
    rows, cols = problem.board.rows, problem.board.cols
    assert image.size == (int(2 * blokus_drawing.MARGIN + cols * blokus_drawing.CELL),
                          int(2 * blokus_drawing.MARGIN + rows * blokus_drawing.CELL))
    colours = {
        (row, col): image.getpixel(blokus_cell_pixel(problem, row, col, flip)) for row in range(rows) for col in range(cols)
    }
    start = [cell for cell, colour in colours.items() if colour == rgb(blokus_drawing.START)]
    assert start == [problem.start]
    assert sum(colour == rgb(blokus_drawing.EMPTY) for colour in colours.values()) == rows * cols - 1


def test_blokus_png_plan_colours_exactly_the_covered_cells(tmp_path, blokus):
    _, problem, result = blokus
    path = tmp_path / "board.png"
    render_plan(get_domain("blokus"), problem, result.states, None, path, flip=True)
    image = Image.open(path).convert("RGB")
    band = image.height - (2 * blokus_drawing.MARGIN + problem.board.rows * blokus_drawing.CELL)
    board = problem.board
    covered = set(board.cells_of(result.states[-1][0]))
    piece_colours = {rgb(colour) for colour in blokus_drawing.PIECE_COLOURS}
    coloured = {
        (row, col)
        for row in range(board.rows)
        for col in range(board.cols)
        if image.getpixel(blokus_cell_pixel(problem, row, col, True, band)) in piece_colours
    }
    assert coloured == covered


# ----- errors and the command line -------------------------------------------------------------

def test_unknown_extension_and_illegal_plans_are_input_errors(tmp_path, klotski):
    _, problem, result = klotski
    with pytest.raises(InputError, match="format"):
        render_plan(get_domain("klotski"), problem, result.states, None, tmp_path / "plan.jpg")
    skipping = [result.states[0], result.states[2]]
    with pytest.raises(InputError, match="step 1"):
        render_plan(get_domain("klotski"), problem, skipping, None, tmp_path / "plan.gif")
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_is_an_input_error(tmp_path, capsys):
    out = tmp_path / "missing" / "start.png"
    assert main(["render", "klotski", str(KLOTSKI_CLASSIC), "--out", str(out)]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert not out.parent.exists()


@pytest.mark.parametrize(
    "instance, solution",
    [
        ("w23_s24_char/testhrd_easy1.txt", "w23_s24_char/testhrd_easy1_astar_output_1.txt"),  # V2 characters
        ("f22_numeric/hrd_input2.txt", "f22_numeric/hrd_solution2.txt"),  # V1 digits and cost line
    ],
)
def test_render_command_replays_a_course_solution(tmp_path, instance, solution):
    instance, solution = DATA / "hrd" / instance, DATA / "hrd" / solution
    out = tmp_path / "replay.gif"
    assert main(["render", "klotski", str(instance), "--plan", str(solution), "--out", str(out)]) == 0
    boards = [block for block in solution.read_text().split("\n\n") if block.strip()]
    assert Image.open(out).n_frames == len(boards)


def test_render_command_rejects_a_plan_for_another_start(tmp_path, capsys):
    solution = DATA / "hrd" / "w23_s24_char" / "testhrd_easy1_astar_output_1.txt"
    out = tmp_path / "replay.html"
    status = main(["render", "klotski", str(KLOTSKI_CLASSIC), "--plan", str(solution), "--out", str(out)])
    error = capsys.readouterr().err
    assert status == 2
    assert error.count("\n") == 1 and f"{solution}:1:" in error and "another instance" in error
    assert not out.exists()


def test_render_command_replays_a_blocksworld_trace(tmp_path, capsys):
    assert main(["blocksworld", str(BLOCKS)]) == 0
    trace = tmp_path / "trace.txt"
    trace.write_text(capsys.readouterr().out)
    out = tmp_path / "trace.html"
    assert main(["render", "blocksworld", str(BLOCKS), "--plan", str(trace), "--out", str(out)]) == 0
    frames = viewer_data(out)["frames"]
    assert len(frames) == 7 and frames[-1]["goal"] is True  # probA06's optimal plan has 6 moves


def blokus_arguments() -> list[str]:
    pieces, size, start, targets = BLOKUS_COVER
    return [pieces, "-s", *map(str, size), "-x", *map(str, start), "--targets", targets]


def test_render_command_replays_a_blokus_move_list(tmp_path, capsys):
    assert main(["solve", "blokus", *blokus_arguments()]) == 0
    moves = tmp_path / "moves.txt"
    moves.write_text(capsys.readouterr().out)
    played = len(re.findall(r"^move \d+: piece", moves.read_text(), re.M))
    out = tmp_path / "moves.gif"
    assert main(["render", "blokus", *blokus_arguments(), "--plan", str(moves), "--out", str(out)]) == 0
    assert played > 0 and Image.open(out).n_frames == played + 1


def test_render_command_names_the_line_of_an_illegal_blokus_move(tmp_path, capsys):
    moves = tmp_path / "moves.txt"
    # The first piece must cover the start (3,3); this one does not.
    moves.write_text("move 1: piece 1 (1 tiles) at (0,0)\n")
    out = tmp_path / "moves.svg"
    assert main(["render", "blokus", *blokus_arguments(), "--plan", str(moves), "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"{moves}:1: step 1 is not legal" in error
    assert not out.exists()


def test_render_command_solves_and_draws_every_domain(tmp_path, capsys):
    pieces, size, start, targets = BLOKUS_COVER
    runs = [
        (["blocksworld", str(BLOCKS), "--frame-time", "200"], "stacks.gif"),
        (["blokus", pieces, "-s", *map(str, size), "-x", *map(str, start), "--targets", targets, "--flip"], "cover.html"),
        (["klotski", str(KLOTSKI_GOAL_BOARD)], "klotski.png"),
        # A classic board: the mirror-symmetry reduction is on, the plan is still real boards.
        (["klotski", str(DATA / "hrd" / "f22_numeric" / "hrd_input2.txt"), "--symmetry"], "classic.html"),
    ]
    for arguments, name in runs:
        out = tmp_path / name
        assert main(["render", *arguments, "--solve", "--out", str(out)]) == 0, name
        assert out.stat().st_size > 1000
    gif = Image.open(tmp_path / "stacks.gif")
    assert gif.n_frames > 1 and gif.info["duration"] == 200
    assert "<th>algorithm</th><td>astar</td>" in (tmp_path / "cover.html").read_text()
    assert viewer_data(tmp_path / "cover.html")["frames"][-1]["goal"] is True
    assert viewer_data(tmp_path / "classic.html")["frames"][-1]["goal"] is True


def test_course_front_ends_draw_their_plans_with_render(tmp_path, capsys):
    bwp = DATA / "blocksworld" / "probA06.bwp"
    gif = tmp_path / "stacks.gif"
    assert main(["blocksworld", str(bwp), "-H", "H1", "--render", str(gif)]) == 0
    planlen = int(re.search(r"planlen (\d+)", capsys.readouterr().out).group(1))
    assert Image.open(gif).n_frames == planlen + 1

    pieces, size, start, targets = BLOKUS_COVER
    course = ["blokus", "-p", pieces, "-f", "astar", "-s", *map(str, size), "-H", "blokus_cover_heuristic",
              "-z", "cover", "-x", *map(str, start), targets]
    png = tmp_path / "board.png"
    assert main([*course, "--render", str(png)]) == 0
    assert "Expanded nodes:" in capsys.readouterr().out
    picture = Image.open(png).convert("RGB")
    assert len(picture.getcolors(maxcolors=1 << 16)) > 3  # the pieces, the board, the targets: not blank
    flipped = tmp_path / "flipped.png"
    assert main([*course, "--render", str(flipped), "--flip"]) == 0
    assert Image.open(flipped).convert("RGB").tobytes() != picture.tobytes()

    page = tmp_path / "sub.html"
    sub_optimal = ["blokus", "-p", "valid_pieces.txt", "-s", "10", "10", "-z", "sub-optimal", "-x", "7", "7",
                   "[(5,5),", "(8,8),", "(4,9)]", "--render", str(page)]
    assert main(sub_optimal) == 0
    frames = viewer_data(page)["frames"]
    assert frames[-1]["goal"] and frames[-1]["cost"] == 9

    hrd_out, picture = tmp_path / "out.txt", tmp_path / "hrd.svg"
    assert main(["hrd", "--algo", "astar", "--inputfile", str(KLOTSKI_CLASSIC), "--outputfile", str(hrd_out),
                 "--render", str(picture)]) == 0
    assert hrd_out.exists() and picture.stat().st_size > 1000


def test_front_ends_draw_the_start_when_no_plan_is_found(tmp_path, capsys):
    pieces, size, start, targets = BLOKUS_COVER
    out = tmp_path / "unsolved.svg"
    command = ["blokus", "-p", pieces, "-f", "astar", "-s", *map(str, size), "-z", "cover",
               "-x", *map(str, start), targets, "--max-expansions", "1", "--render", str(out)]
    assert main(command) == 3
    root = ElementTree.parse(out).getroot()
    assert not classes(root, "rect", "tile")  # the empty board: nothing placed yet
    assert len(classes(root, "rect", "start")) == 1 and len(classes(root, "circle", "target")) == 3

    classic = DATA / "hrd" / "w23_s24_char" / "testhrd_hard1.txt"
    picture = tmp_path / "classic.svg"
    assert main(["solve", "klotski", str(classic), "--max-expansions", "1", "-q", "--render", str(picture)]) == 3
    big = classes(ElementTree.parse(picture).getroot(), "rect", "big")
    assert len(big) == 1


@pytest.mark.parametrize("command", [["blocksworld", str(BLOCKS)], ["blokus", "-p", "tiny_set.txt", "-s", "4", "7", "-z", "fill"]])
def test_course_front_ends_reject_an_unknown_picture_format_before_searching(tmp_path, capsys, command):
    out = tmp_path / "plan.bmp"
    assert main([*command, "--render", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "cannot tell the picture format" in captured.err
    assert not out.exists()


def test_render_command_without_a_plan_draws_the_start(tmp_path):
    out = tmp_path / "start.svg"
    assert main(["render", "klotski", str(KLOTSKI_CLASSIC), "--out", str(out)]) == 0
    root = ElementTree.parse(out).getroot()
    assert not classes(root, "text", "caption")
    assert len(classes(root, "rect", "big")) == 1


# ----- terminal colour ------------------------------------------------------------------------

def test_terminal_boards_are_coloured_on_a_terminal_and_plain_otherwise(klotski, blocks, blokus):
    import io

    from rich.console import Console

    from heurist.render.terminal import coloured_state, print_state

    for name, (domain, problem, result) in (("klotski", klotski), ("blocksworld", blocks), ("blokus", blokus)):
        state = result.states[-1]
        plain = domain.format_state(problem, state)
        text = coloured_state(domain, problem, state)
        assert text.plain == plain
        assert text.spans, name  # something is coloured
        terminal = io.StringIO()
        Console(file=terminal, force_terminal=True, color_system="truecolor").print(text)
        assert "\x1b[" in terminal.getvalue(), name
        piped = io.StringIO()
        print_state(domain, problem, state, file=piped)
        assert piped.getvalue() == plain + "\n", name



def test_solve_colours_boards_on_a_terminal_and_prints_plain_text_into_a_pipe():
    import os
    import re
    import subprocess
    import sys

    command = [sys.executable, "-m", "heurist.cli.main", "solve", "blocksworld", str(BLOCKS)]
    environment = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "NO_COLOR")}
    piped = subprocess.run(command, capture_output=True, text=True, env=environment, check=True).stdout
    forced = subprocess.run(
        command, capture_output=True, text=True, env={**environment, "FORCE_COLOR": "1"}, check=True
    ).stdout
    assert "move 1:" in piped and "\x1b[" not in piped
    assert "\x1b[" in forced
    plan = piped[: piped.index("search_time")]  # the times differ from run to run
    assert re.sub(r"\x1b\[[0-9;]*m", "", forced).startswith(plan)
