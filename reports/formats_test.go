package reports

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// formats are the renderers this file tests, by golden file extension.
var formats = []struct {
	ext   string
	write func(io.Writer, *Trace) error
}{
	{"dot", WriteTraceDOT},
	{"mmd", WriteTraceMermaid},
	{"svg", WriteTraceSVG},
}

// allFormats are formats and the HTML page, which embeds the SVG and the
// trace (TestHTMLEmbedsTrace) rather than having a golden file.
var allFormats = append(formats[:len(formats):len(formats)], struct {
	ext   string
	write func(io.Writer, *Trace) error
}{"html", WriteTraceHTML})

// oddTrace is a one-process path whose enumeration value, message type and
// action hold everything the formats must escape.
func oddTrace() *Trace {
	odd := "a\"b\\c<d>{e}|f;g#h&i\nj"
	return &Trace{
		Spec:     "odd\"spec",
		Params:   map[string]int{"n": 1},
		Property: "safety",
		Kind:     "path",
		States: []TraceState{
			{
				Processes: []TraceProcess{{ID: 0, Vars: Fields{{Name: "v", Value: odd, Quoted: true}}}},
				Channels:  []TraceChannel{{From: 0, To: 0, Messages: []TraceMessage{{Type: odd}}}},
			},
			{
				Processes: []TraceProcess{{ID: 0, Vars: Fields{{Name: "v", Value: "plain", Quoted: true}}}},
				Channels:  []TraceChannel{{From: 0, To: 0, Messages: []TraceMessage{}}},
			},
		},
		Steps: []TraceStep{{Processes: []int{0}, Action: odd}},
	}
}

// bigTrace is a 5-process ring of 40 steps: process i%5 moves at step i,
// sends a message to its successor, and receives its predecessor's.
func bigTrace() *Trace {
	const n, steps = 5, 40
	state := func(k int) TraceState {
		s := TraceState{}
		for p := range n {
			s.Processes = append(s.Processes, TraceProcess{ID: p, Vars: Fields{
				{Name: "x", Value: itoa((k + p) / n)}, {Name: "mode", Value: []string{"idle", "wait"}[(k+p)%2], Quoted: true},
			}})
		}
		for p := range n {
			// Channel p→p+1 holds the message of p's last move, until
			// p+1 moves next.
			var msgs []TraceMessage
			if k > 0 && (k-1)%n == p {
				msgs = []TraceMessage{{Type: "Tok", Fields: Fields{{Name: "k", Value: itoa(k)}}}}
			} else {
				msgs = []TraceMessage{}
			}
			s.Channels = append(s.Channels, TraceChannel{From: p, To: (p + 1) % n, Messages: msgs})
		}
		return s
	}
	t := &Trace{Spec: "big", Params: map[string]int{"n": n}, Property: "deadlock", Kind: "path"}
	for k := 0; k <= steps; k++ {
		t.States = append(t.States, state(k))
	}
	for k := range steps {
		t.Steps = append(t.Steps, TraceStep{Processes: []int{k % n}, Action: "move"})
	}
	return t
}

func TestFormatsGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trace *Trace
	}{
		{"trace_klnaive", klTrace(t)},
		{"trace_lasso", lassoTrace()},
		{"trace_odd", oddTrace()},
	} {
		for _, f := range formats {
			t.Run(tc.name+"."+f.ext, func(t *testing.T) {
				var buf bytes.Buffer
				if err := f.write(&buf, tc.trace); err != nil {
					t.Fatal(err)
				}
				golden(t, tc.name+"."+f.ext+".golden", buf.Bytes())
			})
		}
	}
}

func TestFormatsDeterministic(t *testing.T) {
	for _, tr := range []*Trace{klTrace(t), lassoTrace(), bigTrace()} {
		for _, f := range allFormats {
			var first bytes.Buffer
			if err := f.write(&first, tr); err != nil {
				t.Fatal(err)
			}
			for i := range 20 {
				var again bytes.Buffer
				if err := f.write(&again, tr); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(again.Bytes(), first.Bytes()) {
					t.Fatalf("%s of %s: run %d differs from the first", f.ext, tr.Spec, i+2)
				}
			}
		}
	}
}

func TestFormatsWriteErrors(t *testing.T) {
	for _, f := range allFormats {
		if err := f.write(failingWriter{}, lassoTrace()); err == nil {
			t.Errorf("%s: no error from a failing writer", f.ext)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestDOTEscaping(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTraceDOT(&buf, oddTrace()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// The escaped value: quote and backslash escaped, the line break \l.
	want := `v=a\"b\\c<d>{e}|f;g#h&i\lj`
	if !strings.Contains(out, want) {
		t.Errorf("the DOT output lacks %s:\n%s", want, out)
	}
	// Every label is one line: no raw line break inside a quoted string.
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if n := strings.Count(line, `"`) - strings.Count(line, `\"`); n%2 != 0 {
			t.Errorf("line %d has an unclosed string: %s", i+1, line)
		}
	}
}

func TestDOTRendersWithGraphviz(t *testing.T) {
	dot := graphviz(t)
	for _, tr := range []*Trace{klTrace(t), lassoTrace(), oddTrace(), bigTrace()} {
		var buf bytes.Buffer
		if err := WriteTraceDOT(&buf, tr); err != nil {
			t.Fatal(err)
		}
		renderSVG(t, dot, tr.Spec, &buf)
	}
}

// graphviz returns the path of Graphviz's dot, or skips the test.
func graphviz(t *testing.T) string {
	t.Helper()
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("dot (Graphviz) is not on PATH: skipping the rendering test")
	}
	return dot
}

// renderSVG runs dot -Tsvg on a DOT graph and fails t unless it renders
// an SVG with nothing on stderr.
func renderSVG(t *testing.T, dot, what string, graph *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(dot, "-Tsvg")
	cmd.Stdin = graph
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Errorf("dot -Tsvg on %s: %v\n%s", what, err, stderr.String())
	}
	if !bytes.Contains(out, []byte("<svg")) {
		t.Errorf("dot -Tsvg on %s wrote no SVG", what)
	}
}

func TestMermaidEscaping(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTraceMermaid(&buf, oddTrace()); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		text := line
		if j := strings.Index(line, ": "); j >= 0 {
			text = line[j+2:]
		}
		// What is left of ';' and '#' are the entity codes #59; and #35;.
		bare := strings.NewReplacer("#59;", "", "#35;", "", "#60;", "", "#62;", "").Replace(text)
		if strings.ContainsAny(bare, ";#<>") {
			t.Errorf("line %d: unescaped text %q", i+1, text)
		}
	}
}

func TestMermaidMessages(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTraceMermaid(&buf, klTrace(t)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"  participant p2\n",
		"  Note over p2,p0: initially in 2→0: Token\n",
		"  Note over p0: 2. collect, receives Token from p2, cnt=1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	buf.Reset()
	if err := WriteTraceMermaid(&buf, lassoTrace()); err != nil {
		t.Fatal(err)
	}
	out = buf.String()
	for _, want := range []string{
		"  loop from state 1, forever\n",
		"    p0->>p1: Ping\n",
		"  end\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestSVGWellFormed(t *testing.T) {
	for _, tr := range []*Trace{bigTrace(), oddTrace(), lassoTrace(), klTrace(t)} {
		var buf bytes.Buffer
		if err := WriteTraceSVG(&buf, tr); err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
		texts := 0
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed XML: %v", tr.Spec, err)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "text" {
				texts++
				for _, a := range se.Attr {
					if size, _ := strconv.Atoi(a.Value); a.Name.Local == "font-size" && size < 10 {
						t.Errorf("%s: font-size %s", tr.Spec, a.Value)
					}
				}
			}
		}
		if texts == 0 {
			t.Errorf("%s: no text", tr.Spec)
		}
	}
	// 40 steps of 5 processes: 40 marks, 40 arrows (39 received, 1 not).
	var buf bytes.Buffer
	if err := WriteTraceSVG(&buf, bigTrace()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if got := strings.Count(out, `r="5"`); got != 40 {
		t.Errorf("%d step marks, want 40", got)
	}
	if got := strings.Count(out, `marker-end`); got != 40 {
		t.Errorf("%d message arrows, want 40", got)
	}
	if got := strings.Count(out, `marker-end="url(#arrow)" stroke-dasharray`); got != 1 {
		t.Errorf("%d arrows to the bottom, want 1", got)
	}
}

// renderings are every rendering of a trace for a person, by name.
var renderings = append([]struct {
	ext   string
	write func(io.Writer, *Trace) error
}{{"txt", WriteTraceText}}, formats...)

// render is tr rendered by write.
func render(t *testing.T, write func(io.Writer, *Trace) error, tr *Trace) string {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestStartHeadings: every rendering heads state 0 with what the trace
// starts from, as the text rendering does, and calls it initial only when
// it is.
func TestStartHeadings(t *testing.T) {
	for _, tc := range []struct{ start, heading string }{
		{"", "state 0 (initial)"},
		{"fault", "state 0 (left by a transient fault)"},
		{"random", "state 0 (a random configuration)"},
		{"given", "state 0 (the configuration given to start from)"},
		{"all", "state 0 (a configuration of the full space)"},
		{"empty-channels", "state 0 (a configuration whose channels are empty)"},
	} {
		for _, tr := range []*Trace{klTrace(t), lassoTrace(), oddTrace()} {
			tr.Start = tc.start
			if err := tr.Validate(); err != nil {
				t.Fatal(err)
			}
			all := "p0"
			if n := len(tr.States[0].Processes); n > 1 {
				all += ",p" + strconv.Itoa(n-1)
			}
			want := map[string]string{
				"txt": "\n" + tc.heading + "\n",
				"dot": "\n  s0 [label=\"" + tc.heading,
				"mmd": "\n  Note over " + all + ": " + tc.heading + "\n",
				"svg": ">" + tc.heading + "</text>\n",
			}
			for _, r := range renderings {
				out := render(t, r.write, tr)
				if !strings.Contains(out, want[r.ext]) {
					t.Errorf("%s of %s from %q: no %q in\n%s", r.ext, tr.Spec, tc.start, want[r.ext], out)
				}
				if tc.start != "" && strings.Contains(out, "initial)") {
					t.Errorf("%s of %s from %q calls state 0 initial:\n%s", r.ext, tr.Spec, tc.start, out)
				}
			}
		}
	}
}

// TestSVGRowLabelsFit: the longest heading of state 0 ends left of the
// first column and starts right of the loop bracket (x 18 to 36).
func TestSVGRowLabelsFit(t *testing.T) {
	tr := lassoTrace()
	tr.Start = "empty-channels"
	out := render(t, WriteTraceSVG, tr)
	label := stateHeading(tr, 0)
	i := strings.Index(out, ">"+label+"</text>")
	if i < 0 {
		t.Fatalf("no row label %q in\n%s", label, out)
	}
	start := strings.LastIndex(out[:i], "<text")
	var x, y int
	if _, err := fmt.Sscanf(out[start:i], `<text x="%d" y="%d"`, &x, &y); err != nil {
		t.Fatalf("%v: %s", err, out[start:i])
	}
	if left := x - int(float64(len(label))*svgLabelW); left <= 36 {
		t.Errorf("the label %q spans x %d to %d, over the loop bracket", label, left, x)
	}
	if first := `<text x="` + strconv.Itoa(x+12+20) + `" y="50"`; !strings.Contains(out, first+` font-size="14" font-weight="bold" text-anchor="middle">p0</text>`) {
		t.Errorf("p0's column is not 32 pixels right of the row labels' end (x %d):\n%s", x, out)
	}
}

// TestTraceTitles: every rendering is titled by traceTitle (the first line
// of the text rendering), the others adding the process; a stabilization
// trace (the worst case of convergence, a run measured in rounds) is a
// witness, any other a counterexample.
func TestTraceTitles(t *testing.T) {
	worst := klTrace(t)
	worst.Property, worst.Start = "stabilization", "all"
	rounds := klTrace(t)
	rounds.Property, rounds.Start, rounds.RoundEnds, rounds.Order = "stabilization", "random", []int{3, 6}, "backward"
	starving := lassoTrace()
	p1 := 1
	starving.Process = &p1
	for _, tc := range []struct {
		trace *Trace
		title string
	}{
		{worst, "stabilization witness for kl-naive (Cmax=0 K=2 L=3 n=3): a path of 6 steps"},
		{rounds, "stabilization witness for kl-naive (Cmax=0 K=2 L=3 n=3): a path of 6 steps in 2 rounds"},
		{klTrace(t), "deadlock counterexample for kl-naive (Cmax=0 K=2 L=3 n=3): a path of 6 steps"},
		{starving, "starvation counterexample for toy (K=3 n=2): a lasso of 3 steps"},
	} {
		if err := tc.trace.Validate(); err != nil {
			t.Fatal(err)
		}
		if got := traceTitle(tc.trace); got != tc.title {
			t.Errorf("traceTitle = %q, want %q", got, tc.title)
		}
		graph := tc.title
		if tc.trace.Process != nil {
			graph += ", process " + strconv.Itoa(*tc.trace.Process)
		}
		want := map[string]string{
			"txt": tc.title + "\n",
			"dot": "digraph trace {\n  label=\"" + graph + "\";\n",
			"mmd": "sequenceDiagram\n  title " + graph + "\n",
			"svg": `<text x="10" y="20" font-size="12">` + graph + "</text>\n",
		}
		for _, r := range renderings {
			out := render(t, r.write, tc.trace)
			if r.ext == "txt" && !strings.HasPrefix(out, want["txt"]) || r.ext != "txt" && !strings.Contains(out, want[r.ext]) {
				t.Errorf("%s: no %q in\n%s", r.ext, want[r.ext], out)
			}
		}
	}
	// check's text introduces the worst case's witness as one.
	var buf bytes.Buffer
	if err := WriteCheckText(&buf, &CheckResult{Spec: "kl-naive", Stabilization: &StabilizationResult{Witness: worst}}); err != nil {
		t.Fatal(err)
	}
	if want := "\nworst-case witness: stabilization witness for kl-naive (Cmax=0 K=2 L=3 n=3): a path of 6 steps\n"; !strings.Contains(buf.String(), want) {
		t.Errorf("no %q in\n%s", want, buf.String())
	}
}

// TestTextLoopMarker: the text rendering marks a lasso's loop just above
// the variables of the state it starts at, after the step that leads into
// it, so that the steps between the marker and the loop's close are the
// loop's: as many as DOT's, Mermaid's and cycle_steps count.
func TestTextLoopMarker(t *testing.T) {
	base := lassoTrace() // states 0..2
	for loopStart, marker := range []string{
		"-- the loop starts at state 0, below: steps 1 to 3 repeat forever --",
		"-- the loop starts at state 1, below: steps 2 to 3 repeat forever --",
		"-- the loop starts at state 2, below: step 3 repeats forever --",
	} {
		tr := lassoTrace()
		tr.LoopStart = &loopStart
		if err := tr.Validate(); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(render(t, WriteTraceText, tr), "\n")
		at := slices.Index(lines, marker)
		if at < 1 {
			t.Errorf("loop_start %d: no %q in\n%s", loopStart, marker, strings.Join(lines, "\n"))
			continue
		}
		// Above the marker: state loop_start's heading or the step into it;
		// below it, its variables.
		above := "step " + strconv.Itoa(loopStart) + ": "
		if loopStart == 0 {
			above = "state 0 ("
		}
		if !strings.HasPrefix(lines[at-1], above) || !strings.HasPrefix(lines[at+1], "  p0  ") {
			t.Errorf("loop_start %d: the marker is not between %q and state %d's variables:\n%s", loopStart, above, loopStart, strings.Join(lines, "\n"))
		}
		steps := 0
		for _, l := range lines[at+1:] {
			if strings.HasPrefix(l, "step ") {
				steps++
			}
		}
		if want := len(base.Steps) - loopStart; steps != want {
			t.Errorf("loop_start %d: %d steps after the marker, want the loop's %d", loopStart, steps, want)
		}
	}
}
