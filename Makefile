# OpenBench-style build: `make EXE=name` builds the release engine and copies it to ./name
# (OpenBench runs `make EXE=<name>` in the repository). Plain `make` gives ./evochess.
# CARGO_TARGET_DIR is honoured; cargo's own flags can be passed with CARGO_FLAGS.
# `make pgo EXE=name`: the profile-guided build (bench/build_pgo.sh; the same moves, faster).

EXE ?= evochess
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: all clean pgo
all:
	$(CARGO) build --release --locked -p evochess --bin evochess $(CARGO_FLAGS)
	cp $(TARGET_DIR)/release/evochess $(EXE)

pgo:
	bench/build_pgo.sh $(EXE)

clean:
	$(CARGO) clean
