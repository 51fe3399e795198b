# keel — a terminal coding assistant. `make help` lists the targets.
GO       ?= go
BIN      := bin/keel
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)

.DEFAULT_GOAL := help

.PHONY: help build run test soak lint bench demo clean jaeger test-otel

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# bin/keel is built without cgo: a static binary needs no dynamic loader
# or libc, starts faster and holds 6-8 MB less memory (docs/BENCHMARKS.md).
# -dwarf=false: the linker drops DWARF (-w), so the compiler need not make
# it (the binary is the same; a cold build takes ~15 s less CPU). The e2e
# tests build keel with BUILDFLAGS too (cmd/keel's goBuild), and so does
# make test's warm-up: one build cache entry. -trimpath is make build's
# alone: the install test builds keel as a dependency, whose trimmed
# paths differ from a checkout's, and would compile keel a second time.
BUILDFLAGS := -gcflags=all=-dwarf=false
build: ## build bin/keel with the version stamped
	CGO_ENABLED=0 $(GO) build -trimpath $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/keel

run: build ## build and start the TUI
	./$(BIN) $(ARGS)

# What make test costs is CPU: a cold run on a 2-core machine keeps both
# cores busy to the end, so each flag below buys time by doing less work
# (figures: docs/CONTRIBUTING.md, "Tests").
# - The test binaries carry no DWARF (-w, -dwarf=false): nothing in make
#   test runs a debugger, and race reports read the symbol table.
# - modernc.org/sqlite is race-instrumented like everything else, but
#   without checkptr: that checks the C-to-Go translation's pointer
#   arithmetic, not keel's (keel's own unsafe stays checked). Its
#   pattern repeats -dwarf=false: a package takes the flags of the last
#   -gcflags pattern it matches, not the sum of them.
# - -vet=off: go test's vet type-checks every dependency from source for
#   its facts; go vet runs in make lint and in CI (.ci/run).
# - The e2e tests build keel as make build does, without -race (cmd/keel's
#   goBuild). The warm-up build here has the same compile flags, so it
#   fills the build cache beside the race build instead of after it,
#   where cmd/keel's tests would wait.
# - -p 4: go test runs a package's tests as one of its -p jobs, so
#   packages whose tests wait on processes (cmd/keel, agent/datalog) held
#   both jobs of a 2-core machine while compiles waited. cmd/keel's
#   TestMain runs 8 of its tests at a time.
# - -timeout 30m guards against a hang only (a busy machine once took
#   cmd/keel past go test's default 10 minutes with no test stuck).
RACEFLAGS := -race -vet=off -ldflags=-w -gcflags='all=-dwarf=false' \
	-gcflags='modernc.org/...=-dwarf=false -d=checkptr=0'
test: ## run every test with the race detector
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o /dev/null ./cmd/keel & \
	$(GO) test $(RACEFLAGS) -count=1 -p 4 -timeout 30m ./...; rc=$$?; wait; exit $$rc

# The kill tests with many trials (make test runs a few): 100 SIGKILLs at
# random moments of an editing task, each followed by one keel undo that
# must restore every file exactly; 50 SIGKILLs during keel undo, each
# followed by an undo that must finish the job. Each test logs its tally.
# Then the permission differential with 20000 generated commands (make
# test runs the first 5000).
soak: ## the kill tests, 100 and 50 trials, and the 20000-command permission differential (tens of minutes; the log: bin/soak.txt)
	@mkdir -p bin
	@KEEL_SOAK=1 $(GO) test -count=1 -timeout 120m -parallel 4 -v -run 'TestKillDuring(Editing|Undo)' ./cmd/keel > bin/soak.txt 2>&1; rc=$$?; \
		KEEL_SOAK=1 $(GO) test -count=1 -timeout 120m -v -run 'TestPermissionDifferential$$' ./tools >> bin/soak.txt 2>&1 || rc=1; \
		grep -E -- '--- FAIL|^(ok|FAIL)|trials,|commands generated' bin/soak.txt; exit $$rc

lint: ## go vet, gofmt (must be empty), deadcode (must be empty), staticcheck when installed
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@command -v deadcode >/dev/null 2>&1 || $(GO) install golang.org/x/tools/cmd/deadcode@v0.52.0
	@out=$$(PATH="$$PATH:$$($(GO) env GOPATH)/bin" deadcode -test ./...); if [ -n "$$out" ]; then echo "dead code:"; echo "$$out"; exit 1; fi
	@if command -v staticcheck >/dev/null 2>&1; then staticcheck ./...; else echo "staticcheck not installed: go install honnef.co/go/tools/cmd/staticcheck@latest"; fi

# keelbench and the Go benchmarks are built with bin/keel's flags, so a cold
# build cache compiles the dependencies once, not twice (~45 s). BASELINE is
# the build measured beside this one (auto: the previous release; none: no
# column); PEER the peer's binary whose idle TUI is measured in the same run
# (bin/crush when it is there; docs/BENCHMARKS.md says how to build it).
BASELINE ?= auto
PEER     ?= $(wildcard bin/crush)
bench: ## run the Go benchmarks and keelbench, beside the previous release (budgets: docs/BENCHMARKS.md)
	$(MAKE) --no-print-directory build
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/keelbench ./cmd/keelbench
	@echo "go test: the benchmarks named in cmd/keelbench/budgets.json"
	@CGO_ENABLED=0 $(GO) test -trimpath -run '^$$' -benchmem -count 1 $$(bin/keelbench -gotest-args) > bin/gobench.txt 2>&1 || { cat bin/gobench.txt; exit 1; }
	bin/keelbench -suite -keel $(BIN) -gobench bin/gobench.txt $(if $(filter-out none,$(BASELINE)),-baseline $(BASELINE)) $(if $(PEER),-peer $(PEER))

# Jaeger for the OTLP end-to-end tests (cmd/keel/otlp_e2e_test.go), built
# from the Go module proxy into the user's cache once: a few minutes cold,
# nothing after. Without it those tests skip and say so; .ci/run builds it
# before make test, so the build stays out of make test's time.
JAEGER_VERSION := v1.76.0
JAEGER_DIR     := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/keel-test/jaeger-$(JAEGER_VERSION)
jaeger: ## build Jaeger (OTLP e2e tests' backend) into ~/.cache/keel-test once
	@if [ -x "$(JAEGER_DIR)/jaeger" ]; then echo "jaeger: $(JAEGER_DIR)/jaeger is built"; else \
		mkdir -p "$(JAEGER_DIR)/mod" && cd "$(JAEGER_DIR)/mod" && \
		{ [ -f go.mod ] || GOFLAGS=-mod=mod $(GO) mod init keel-test/jaeger; } && \
		GOFLAGS=-mod=mod $(GO) get -tool github.com/jaegertracing/jaeger/cmd/jaeger@$(JAEGER_VERSION) && \
		CGO_ENABLED=0 GOFLAGS=-mod=mod $(GO) build -trimpath -o "$(JAEGER_DIR)/jaeger.tmp" github.com/jaegertracing/jaeger/cmd/jaeger && \
		mv "$(JAEGER_DIR)/jaeger.tmp" "$(JAEGER_DIR)/jaeger" && echo "jaeger: built $(JAEGER_DIR)/jaeger"; fi

test-otel: jaeger ## the OTLP end-to-end tests against Jaeger
	$(GO) test -race -count=1 -run 'TestOTLP' ./cmd/keel

demo: build ## start the scripted demo (no API key needed)
	./$(BIN) --demo

clean: ## remove build output
	rm -rf bin
