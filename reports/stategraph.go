package reports

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dominikbraun/graph"
	"github.com/dominikbraun/graph/draw"

	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// StateGraphLimit is the most states WriteStateGraphDOT draws by default:
// a drawing of more is unreadable, and the graph library it uses keeps
// every vertex and edge in maps.
const StateGraphLimit = 2000

// StateGraphOptions say what WriteStateGraphDOT draws and marks.
type StateGraphOptions struct {
	// Limit is the most vertices drawn; a larger graph is refused (0:
	// StateGraphLimit).
	Limit uint64
	// Title labels the drawing.
	Title string
	// Initial, if set, reports the vertices that are initial
	// configurations: they are drawn with a double border.
	Initial func(v uint32) bool
	// Legitimate, if set, is the legitimacy predicate: its configurations
	// are filled, and the states on cycles outside it (the strongly
	// connected components of the graph outside L with a cycle) are drawn
	// in red.
	Legitimate func(*model.State) bool
}

// WriteStateGraphDOT draws g as a Graphviz digraph: one box per state (its
// vertex number and every process's variables and non-empty channels), one
// edge per pair of states a step joins, labelled with the steps (processes
// and action) that join them. The graph is built with
// github.com/dominikbraun/graph and written by its draw.DOT, whose
// statements come in map order; WriteStateGraphDOT sorts them (vertices by
// number, then edges by source and target) so that the file is the same
// bytes from run to run.
func WriteStateGraphDOT(w io.Writer, g statespace.Graph, opts StateGraphOptions) error {
	dg, err := stateGraph(g, opts)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := draw.DOT(dg, &buf, draw.GraphAttribute("label", dotEscape(opts.Title)), draw.GraphAttribute("labelloc", "t")); err != nil {
		return fmt.Errorf("drawing the state graph: %w", err)
	}
	_, err = io.WriteString(w, sortedDOT(buf.String()))
	return err
}

// stateGraph builds g as a graph of the library, with the DOT attributes
// of every vertex and edge.
func stateGraph(g statespace.Graph, opts StateGraphOptions) (graph.Graph[string, uint32], error) {
	limit := opts.Limit
	if limit == 0 {
		limit = StateGraphLimit
	}
	if g.Size() > limit {
		return nil, fmt.Errorf("the state graph has %d states, more than the %d drawn", g.Size(), limit)
	}
	sys := g.System()
	n := uint32(g.Size())
	dg := graph.New(vertexName, graph.Directed())
	walker := g.NewWalker()
	legit := statespace.NewBits(uint64(n))
	for v := range n {
		st, err := walker.Load(v)
		if err != nil {
			return nil, err
		}
		attrs := map[string]string{"shape": "box", "fontname": "monospace", "fontsize": "10"}
		ts := traceState(sys.Decode(st))
		attrs["label"] = dotEscape(strings.Join(append([]string{"state " + strconv.Itoa(int(v))}, stateLines(&ts, nil)...), "\n") + "\n")
		if opts.Initial != nil && opts.Initial(v) {
			attrs["peripheries"] = "2"
		}
		if opts.Legitimate != nil && opts.Legitimate(st) {
			legit.Set(v)
			attrs["style"] = "filled"
			attrs["fillcolor"] = "palegreen"
		}
		if err := dg.AddVertex(v, graph.VertexAttributes(attrs)); err != nil {
			return nil, err
		}
	}
	for v := range n {
		st, err := walker.Load(v)
		if err != nil {
			return nil, err
		}
		labels := map[uint32][]string{}
		var targets []uint32
		if _, err := walker.Successors(st, func(step *model.Step, to uint32, _ *model.State) {
			if _, ok := labels[to]; !ok {
				targets = append(targets, to)
			}
			labels[to] = append(labels[to], stepString(TraceStep{Processes: step.Procs(), Action: sys.Label(step), Overflow: step.Overflow}))
		}); err != nil {
			return nil, err
		}
		for _, to := range targets {
			attrs := map[string]string{"fontname": "monospace", "fontsize": "10", "label": dotEscape(strings.Join(labels[to], "\n"))}
			if err := dg.AddEdge(vertexName(v), vertexName(to), graph.EdgeAttributes(attrs)); err != nil {
				return nil, err
			}
		}
	}
	if opts.Legitimate != nil {
		if err := markCyclesOutside(dg, legit); err != nil {
			return nil, err
		}
	}
	return dg, nil
}

// vertexName is the name of vertex v in the library's graph and in DOT.
// It is never the zero value of its type, which the library does not treat
// as a vertex: draw.DOT writes an edge into it as a vertex statement, and
// the components search loses it.
func vertexName(v uint32) string { return "s" + strconv.FormatUint(uint64(v), 10) }

// vertexNumber is the number of the vertex name names.
func vertexNumber(name string) uint32 {
	v, _ := strconv.ParseUint(strings.TrimPrefix(name, "s"), 10, 32)
	return uint32(v)
}

// markCyclesOutside draws in red the vertices of dg outside legit that lie
// on a cycle outside legit: the members of the strongly connected
// components, with a cycle, of the subgraph legit's complement induces.
func markCyclesOutside(dg graph.Graph[string, uint32], legit statespace.Bits) error {
	outside := graph.NewLike(dg)
	adj, err := dg.AdjacencyMap()
	if err != nil {
		return err
	}
	in := func(name string) bool { return legit.Has(vertexNumber(name)) }
	for v := range adj {
		if !in(v) {
			if err := outside.AddVertex(vertexNumber(v)); err != nil {
				return err
			}
		}
	}
	for v, succs := range adj {
		for to := range succs {
			if !in(v) && !in(to) {
				if err := outside.AddEdge(v, to); err != nil {
					return err
				}
			}
		}
	}
	sccs, err := graph.StronglyConnectedComponents(outside)
	if err != nil {
		return err
	}
	for _, c := range sccs {
		if len(c) == 1 {
			if _, selfLoop := adj[c[0]][c[0]]; !selfLoop {
				continue
			}
		}
		for _, v := range c {
			_, props, err := dg.VertexWithProperties(v)
			if err != nil {
				return err
			}
			props.Attributes["color"] = "red"
			props.Attributes["penwidth"] = "2"
		}
	}
	return nil
}

// sortedDOT puts the statements of a DOT graph that draw.DOT wrote in a
// fixed order: vertices by number, then edges by source and target. The
// header and the graph attributes stay first, blank lines go.
func sortedDOT(dot string) string {
	var head, stmts []string
	for _, line := range strings.Split(strings.TrimSuffix(dot, "\n"), "\n") {
		switch {
		case strings.TrimSpace(line) == "" || line == "}":
		case strings.HasPrefix(line, "\t\""):
			stmts = append(stmts, line)
		default:
			head = append(head, line)
		}
	}
	slices.SortFunc(stmts, func(a, b string) int {
		as, at, aEdge := statementEnds(a)
		bs, bt, bEdge := statementEnds(b)
		switch {
		case aEdge != bEdge:
			if aEdge {
				return 1
			}
			return -1
		case as != bs:
			return cmp.Compare(as, bs)
		}
		return cmp.Compare(at, bt)
	})
	return strings.Join(head, "\n") + "\n" + strings.Join(stmts, "\n") + "\n}\n"
}

// statementEnds parses the vertex numbers a statement of draw.DOT begins
// with: `"sV" [` for a vertex, `"sV" -> "sW" [` for an edge.
func statementEnds(line string) (source, target uint64, edge bool) {
	fields := strings.SplitN(strings.TrimSpace(line), " ", 4)
	source = uint64(vertexNumber(strings.Trim(fields[0], `"`)))
	if len(fields) > 2 && fields[1] == "->" {
		return source, uint64(vertexNumber(strings.Trim(fields[2], `"`))), true
	}
	return source, 0, false
}
