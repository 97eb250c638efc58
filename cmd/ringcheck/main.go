// Command ringcheck is an explicit-state model checker for distributed
// algorithms on small rings. See `ringcheck --help` and the README; the
// command line itself is package cli.
package main

import "github.com/ringcheck/ringcheck/cmd/ringcheck/cli"

func main() { cli.Main() }
