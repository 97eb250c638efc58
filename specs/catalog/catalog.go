// Package catalog assembles the registry of every spec ringcheck ships:
// the .ring files embedded by package specs/ring.
package catalog

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/compile"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/ring"
)

// entries are the names of the catalogue's embedded .ring files, in the
// order `list` shows their specs.
func entries() []string {
	return []string{
		"dijkstra.ring",
		"kl-naive.ring",
		"kl-pusher.ring",
		"counterflush.ring",
		"kl-ddhl.ring",
		"kl-dhv.ring",
		"raynal.ring",
		"raynal-and.ring",
		"thiare.ring",
		"lejeune.ring",
	}
}

// Registry returns a new registry of all the specs, in the order `list`
// shows them.
func Registry() (*specs.Registry, error) { return RegistryWithCode() }

// RegistryWithCode is Registry whose specs run each instance that one of
// codes was generated from (package lang/gogen) on that code.
func RegistryWithCode(codes ...*compile.Code) (*specs.Registry, error) {
	var all []*specs.Spec
	for _, file := range entries() {
		s, err := fromFile(file, codes)
		if err != nil {
			return nil, err
		}
		all = append(all, s)
	}
	return specs.NewRegistry(all...)
}

// FromFile returns the catalogue entry of the embedded file name
// (dijkstra.ring): the file's, with no File, since a built-in spec is
// named, not read (its FileHash still identifies the version).
func FromFile(name string) (*specs.Spec, error) { return fromFile(name, nil) }

// fromFile is FromFile, the spec's instances run on codes where one was
// generated from them.
func fromFile(name string, codes []*compile.Code) (*specs.Spec, error) {
	s, f, err := lang.LoadFS(ring.Files(), name, path.Join(ring.Dir, name))
	if err != nil {
		return nil, fmt.Errorf("the catalogue's %s: %w", name, err)
	}
	f.WithCode(codes...)
	if want := strings.TrimSuffix(name, lang.Ext); s.Name != want {
		return nil, fmt.Errorf("the catalogue's %s declares spec %s, not %s", name, s.Name, want)
	}
	s.File = ""
	return s, nil
}

// Source returns the text of the .ring file the built-in spec called
// name is read from (NAME.ring), and false for an unknown name.
func Source(name string) ([]byte, bool) {
	for _, file := range entries() {
		if file == name+lang.Ext {
			src, err := fs.ReadFile(ring.Files(), file)
			return src, err == nil
		}
	}
	return nil, false
}
