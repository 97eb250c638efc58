// Package webui holds the explorer's page: its HTML, its script and its
// style sheet, plain files embedded in the binary, written by hand, with
// no dependency to fetch. It serves them as files for 'ringcheck serve',
// and assembles them into one self-contained page, with the data the
// page shows embedded, for an HTML export.
package webui

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed index.html app.js style.css
var files embed.FS

// The markers of index.html that Page and Index replace.
const (
	styleMarker  = "<!--style-->"
	dataMarker   = "<!--data-->"
	scriptMarker = "<!--script-->"
)

// Asset returns the embedded file name ("app.js", "style.css") and its
// media type, or ok false for any other name.
func Asset(name string) (content []byte, mediaType string, ok bool) {
	switch name {
	case "app.js":
		mediaType = "text/javascript; charset=utf-8"
	case "style.css":
		mediaType = "text/css; charset=utf-8"
	default:
		return nil, "", false
	}
	b, err := files.ReadFile(name)
	if err != nil {
		return nil, "", false
	}
	return b, mediaType, true
}

// Index returns the page as a server serves it: its script and style
// sheet linked (Asset serves them), and no data embedded, so the script
// asks the server's API for what it shows.
func Index() []byte {
	page := read("index.html")
	page = strings.Replace(page, styleMarker, `<link rel="stylesheet" href="style.css">`, 1)
	page = strings.Replace(page, dataMarker, "", 1)
	page = strings.Replace(page, scriptMarker, `<script src="app.js"></script>`, 1)
	return []byte(page)
}

// Page returns the page as one self-contained HTML document: its style
// sheet and script inlined, and data, encoded as JSON, in a script
// element of type application/json with id rc-data, from which the
// script reads what it shows instead of asking a server. The encoding
// escapes '<', '>' and '&', so no value closes the element.
func Page(data any) ([]byte, error) {
	js, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("the page's data: %w", err)
	}
	page := read("index.html")
	var b bytes.Buffer
	before, rest, _ := strings.Cut(page, styleMarker)
	b.WriteString(before)
	b.WriteString("<style>\n" + read("style.css") + "</style>")
	before, rest, _ = strings.Cut(rest, dataMarker)
	b.WriteString(before)
	b.WriteString(`<script type="application/json" id="rc-data">`)
	b.Write(js)
	b.WriteString("</script>")
	before, rest, _ = strings.Cut(rest, scriptMarker)
	b.WriteString(before)
	b.WriteString("<script>\n" + read("app.js") + "</script>")
	b.WriteString(rest)
	return b.Bytes(), nil
}

// read returns an embedded file, which is always there.
func read(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		// The files are embedded at build time; a missing one does not
		// compile.
		return ""
	}
	return string(b)
}
