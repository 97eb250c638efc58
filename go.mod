module github.com/ringcheck/ringcheck

go 1.26.8

require (
	github.com/dominikbraun/graph v0.23.0
	github.com/goccy/go-yaml v1.19.2
	github.com/jstemmer/go-junit-report/v2 v2.1.0
	github.com/mitchellh/hashstructure/v2 v2.0.2
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	golang.org/x/term v0.47.0
	pgregory.net/rapid v1.3.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
