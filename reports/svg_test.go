package reports

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// svgElements parses an SVG drawing into its elements' attributes, with
// each text element's content under "#text".
func svgElements(t *testing.T, svg []byte) []map[string]string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var els []map[string]string
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return els
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			attrs := map[string]string{"#name": tok.Name.Local}
			for _, a := range tok.Attr {
				attrs[a.Name.Local] = a.Value
			}
			els = append(els, attrs)
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if n := len(els); n > 0 && inText {
				els[n-1]["#text"] += string(tok)
			}
		}
	}
}

// numbers are the numbers in s.
func numbers(s string) []float64 {
	var xs []float64
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == 'M' || r == 'Q' || r == 'L' }) {
		if x, err := strconv.ParseFloat(f, 64); err == nil {
			xs = append(xs, x)
		}
	}
	return xs
}

// crossTrace is two processes that receive, in one step, the message the
// other had sent them: two arrows that cross at their middles.
func crossTrace() *Trace {
	proc := func(id, x int) TraceProcess {
		return TraceProcess{ID: id, Vars: Fields{{Name: "x", Value: strconv.Itoa(x)}}}
	}
	msgs := func(typ string) []TraceMessage {
		if typ == "" {
			return []TraceMessage{}
		}
		return []TraceMessage{{Type: typ}}
	}
	return &Trace{
		Spec: "cross", Params: map[string]int{"n": 2}, Property: "deadlock", Kind: "path", Daemon: "distributed",
		States: []TraceState{
			{Processes: []TraceProcess{proc(0, 0), proc(1, 0)}, Channels: []TraceChannel{{From: 0, To: 1, Messages: msgs("Ping")}, {From: 1, To: 0, Messages: msgs("Pong")}}},
			{Processes: []TraceProcess{proc(0, 1), proc(1, 1)}, Channels: []TraceChannel{{From: 0, To: 1, Messages: msgs("")}, {From: 1, To: 0, Messages: msgs("")}}},
		},
		Steps: []TraceStep{{Processes: []int{0, 1}, Action: "recv"}},
	}
}

// TestSVGArrowsShortAndLabelsApart: on a ring of five processes whose
// messages go from each process to the next, p4's to p0 round the ring,
// no message arrow spans more than one column (the wrap-around ones are
// short arcs at the edges), and no two message labels overlap, even
// where arrows cross.
func TestSVGArrowsShortAndLabelsApart(t *testing.T) {
	for _, tr := range []*Trace{bigTrace(), lassoTrace(), klTrace(t), crossTrace()} {
		if err := tr.Validate(); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteTraceSVG(&buf, tr); err != nil {
			t.Fatal(err)
		}
		els := svgElements(t, buf.Bytes())
		// The columns: the x of the process headings.
		var cols []float64
		for _, e := range els {
			if e["#name"] == "text" && e["font-weight"] == "bold" {
				x, _ := strconv.ParseFloat(e["x"], 64)
				cols = append(cols, x)
			}
		}
		if len(cols) < 2 {
			t.Fatalf("%s: %d columns", tr.Spec, len(cols))
		}
		colW := cols[1] - cols[0]
		var boxes [][4]float64
		for _, e := range els {
			if e["stroke"] == "#0563c1" {
				var xs []float64
				switch e["#name"] {
				case "line":
					for _, k := range []string{"x1", "x2"} {
						x, _ := strconv.ParseFloat(e[k], 64)
						xs = append(xs, x)
					}
				case "path":
					for i, v := range numbers(e["d"]) {
						if i%2 == 0 {
							xs = append(xs, v)
						}
					}
				}
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, x := range xs {
					lo, hi = min(lo, x), max(hi, x)
				}
				if hi-lo > colW+1 {
					t.Errorf("%s: a message arrow spans %.0f pixels, more than a column (%.0f): %v", tr.Spec, hi-lo, colW, e)
				}
			}
			if e["#name"] == "text" && e["fill"] == "#0563c1" && e["#text"] != "" {
				x, _ := strconv.ParseFloat(e["x"], 64)
				y, _ := strconv.ParseFloat(e["y"], 64)
				w := float64(utf8.RuneCountInString(e["#text"])) * svgLabelW
				box := [4]float64{x - w/2, y - 8, x + w/2, y + 1}
				for _, o := range boxes {
					if box[0] < o[2] && o[0] < box[2] && box[1] < o[3] && o[1] < box[3] {
						t.Errorf("%s: message label %q at (%.0f, %.0f) overlaps another", tr.Spec, e["#text"], x, y)
					}
				}
				boxes = append(boxes, box)
			}
		}
		if len(boxes) == 0 {
			t.Errorf("%s: no message label", tr.Spec)
		}
	}
}
