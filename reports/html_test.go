package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestHTMLEmbedsTrace: the HTML page holds the trace, its title and its
// SVG diagram as JSON in #rc-data, which reads back to the same trace;
// its script and style sheet are inlined (nothing to fetch), and nothing
// in the data, even a value holding markup, closes the script element.
func TestHTMLEmbedsTrace(t *testing.T) {
	for _, tr := range []*Trace{klTrace(t), lassoTrace(), oddTrace()} {
		var page bytes.Buffer
		if err := WriteTraceHTML(&page, tr); err != nil {
			t.Fatal(err)
		}
		html := page.String()
		const open = `<script type="application/json" id="rc-data">`
		_, rest, ok := strings.Cut(html, open)
		if !ok {
			t.Fatalf("%s: no %s", tr.Spec, open)
		}
		data, after, ok := strings.Cut(rest, "</script>")
		if !ok {
			t.Fatalf("%s: the data's script element is not closed", tr.Spec)
		}
		if strings.ContainsAny(data, "<>") {
			t.Errorf("%s: the data holds '<' or '>' unescaped", tr.Spec)
		}
		var pb Playback
		if err := json.Unmarshal([]byte(data), &pb); err != nil {
			t.Fatalf("%s: the data: %v", tr.Spec, err)
		}
		var svg bytes.Buffer
		if err := WriteTraceSVG(&svg, tr); err != nil {
			t.Fatal(err)
		}
		if pb.Title != graphTitle(tr) || pb.SVG != svg.String() {
			t.Errorf("%s: title %q and SVG of %d bytes, want %q and the %d bytes of WriteTraceSVG", tr.Spec, pb.Title, len(pb.SVG), graphTitle(tr), svg.Len())
		}
		want, _ := json.Marshal(tr)
		got, _ := json.Marshal(pb.Trace)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the embedded trace differs:\n%s\nwant\n%s", tr.Spec, got, want)
		}
		if !strings.Contains(after, "<script>\n") || !strings.Contains(html, "<style>\n") || strings.Contains(html, " src=") || strings.Contains(html, "<link") {
			t.Errorf("%s: the script and style sheet are not both inlined", tr.Spec)
		}
	}
}
