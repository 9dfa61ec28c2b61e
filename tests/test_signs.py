"""The signs the block compiler holds values with (evm384_native/tower/signs.py): they follow
the rules (a product's sign is its operands', a negation's the opposite of its operand's,
a value read from memory is itself, an addition of the words held keeps its operands'
sign) and never cost more subtractions and stored negations than the block as written,
on random blocks; on five a = -3 doublings they leave 11 of the 25 subtractions. The
code they lead to is checked against Python integers in tests/test_stack_code.py."""
from hypothesis import given, settings, strategies as st

from evm384_native.tower.signs import NEGATION, SUBTRACTION, Node, choose_signs


def _subtraction(node, signs):
    """Whether a sum or difference is a subtraction of the words held."""
    x, y = node.args
    return (signs[x] == signs[y]) != (node.kind == "add")


def _check_rules(nodes, signs):
    for i, node in enumerate(nodes):
        assert signs[i] in (1, -1)
        if node.kind == "leaf":
            assert signs[i] == 1
        elif node.kind == "mul":
            x, y = node.args
            assert signs[i] == signs[x] * signs[y]
        elif node.kind == "neg":
            assert signs[i] == -signs[node.args[0]]
        elif node.kind in ("add", "sub") and not _subtraction(node, signs):
            assert signs[i] == signs[node.args[0]]


def _cost(nodes, signs, stored):
    subtractions = sum(1 for node in nodes
                       if node.kind in ("add", "sub") and _subtraction(node, signs))
    return SUBTRACTION * subtractions + NEGATION * sum(1 for i in stored if signs[i] < 0)


@st.composite
def blocks(draw):
    leaves = draw(st.integers(1, 4))
    nodes = [Node(draw(st.sampled_from(["leaf", "const"]))) for _ in range(leaves)]
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from(["add", "sub", "mul", "mul", "neg"]))
        x, y = (draw(st.integers(0, len(nodes) - 1)) for _ in range(2))
        nodes.append(Node(kind, (x,) if kind == "neg" else (x, y)))
    stored = draw(st.sets(st.integers(leaves, len(nodes) - 1), min_size=1))
    return nodes, stored


@settings(max_examples=200, deadline=None)
@given(blocks())
def test_signs_follow_the_rules_and_never_cost_more(block):
    nodes, stored = block
    as_written = choose_signs(nodes, stored, kinds=())
    chosen = choose_signs(nodes, stored)
    for signs in (as_written, chosen):
        _check_rules(nodes, signs)
    assert all(signs == 1 for i, signs in enumerate(as_written)
               if nodes[i].kind == "const")
    assert _cost(nodes, chosen, stored) <= _cost(nodes, as_written, stored)


def _doublings(count):
    """a_minus_3.dbl_weighted ``count`` times over (X, Y, Z, W) read from memory, as it
    was written before its weight took the factor -3/2 (M' = (3/2) (X^2 - W)): 5
    subtractions a doubling as written."""
    nodes = [Node("leaf") for _ in range(4)] + [Node("const")]       # X Y Z W, 3/2
    x, y, z, w, three_halves = range(5)

    def add(kind, *args):
        nodes.append(Node(kind, args))
        return len(nodes) - 1
    for _ in range(count):
        d = add("sub", add("mul", x, x), w)
        m = add("mul", d, three_halves)
        g = add("mul", y, y)
        s = add("mul", x, g)
        z = add("mul", y, z)
        x3 = add("sub", add("sub", add("mul", m, m), s), s)
        g = add("mul", g, g)
        y = add("sub", add("mul", m, add("sub", s, x3)), g)
        w = add("mul", w, g)
        x = x3
    return nodes, {x, y, z, w}


def test_the_doubling_chain_keeps_few_subtractions():
    nodes, stored = _doublings(5)
    as_written = choose_signs(nodes, stored, kinds=())
    chosen = choose_signs(nodes, stored)
    _check_rules(nodes, chosen)
    assert _cost(nodes, as_written, stored) == 5 * 5 * SUBTRACTION
    assert _cost(nodes, chosen, stored) <= 11 * SUBTRACTION      # of 25
