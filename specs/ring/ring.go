// Package ring holds the .ring files of the algorithms ringcheck ships,
// embedded in the binary: specs/catalog reads each into a catalogue entry,
// and `ringcheck list --source NAME` prints one, to copy and change.
package ring

import (
	"embed"
	"io/fs"
)

// Dir is the folder of the files in ringcheck's repository; errors about
// an embedded file name it as Dir/NAME.ring.
const Dir = "specs/ring"

//go:embed *.ring *.json
var files embed.FS

// Files returns the embedded files, by their names in Dir: the .ring
// files (dijkstra.ring, ...) and the traces their claims are decided from
// (no-convergence.json).
func Files() fs.FS { return files }
