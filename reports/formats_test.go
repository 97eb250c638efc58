package reports

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os/exec"
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
		for _, f := range formats {
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
	for _, f := range formats {
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
	if got := strings.Count(out, `stroke-dasharray`); got != 1 {
		t.Errorf("%d arrows to the bottom, want 1", got)
	}
}
