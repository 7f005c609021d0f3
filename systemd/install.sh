#!/usr/bin/env bash
# Install molebox as a service on Raspberry Pi OS (docs/pi.md, docs/build.md). Run from the checkout, as root:
#   sudo systemd/install.sh               install, or update after copying a newer checkout (safe to run again)
#   sudo systemd/install.sh --uninstall   undo it: service, venv, config.txt lines, modules
# The wiring profiles go to /etc/molebox/ once and are never overwritten: the service reads them there
# (it cannot read the host's home: ProtectHome=yes), and the one /etc/default/molebox names is checked
# with `molebox wiring check` before the service (re)starts. The uninstall keeps the game journal
# (/var/lib/molebox), the molebox user, as systemd keeps system users, and any profile the host edited;
# `sudo userdel molebox && sudo rm -r /var/lib/molebox /etc/molebox` removes those too.
# ROOT=DIR puts the files under DIR and leaves the running system alone (no apt, pip or systemctl);
# MOLEBOX=COMMAND is the molebox that checks the profile (default: the venv's).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
ROOT=${ROOT:-}
PREFIX=/opt/molebox
UNIT=/etc/systemd/system/molebox.service
SYSUSERS=/etc/sysusers.d/molebox.conf
MODULES=/etc/modules-load.d/molebox.conf
DEFAULTS=/etc/default/molebox
PROFILES=/etc/molebox
LINK=/usr/local/bin/molebox             # so that `molebox doctor` and `sudo molebox pin` work from any shell
MOLEBOX=${MOLEBOX:-$PREFIX/venv/bin/molebox}
# Debian's packages the box needs (the system test's VM image carries the same list: tests/system/images.py);
# the fonts are the screens' letters for every name (companion/render/fonts.py): Latin, Greek, Cyrillic,
# Vietnamese; CJK; libfribidi0 lets Pillow lay text out with Raqm, as the tests' golden frames are drawn
# (without it the letters are spaced otherwise). python3-lgpio is added where apt has it.
APT_PACKAGES="python3-venv i2c-tools fonts-dejavu-core fonts-dejavu-extra fonts-wqy-microhei libfribidi0"
BEGIN="# molebox: begin (systemd/install.sh --uninstall removes this block)"
END="# molebox: end"

say() { printf 'molebox: %s\n' "$*"; }
live() { [ -z "$ROOT" ]; }

config_txt() {          # Bookworm keeps it in /boot/firmware, older releases in /boot
    for path in /boot/firmware/config.txt /boot/config.txt; do
        [ -f "$ROOT$path" ] && { echo "$ROOT$path"; return; }
    done
    echo ""
}

drop_block() {          # config.txt without our block
    awk -v b="$BEGIN" -v e="$END" '$0 == b {skip = 1} !skip {print} $0 == e {skip = 0}' "$1"
}

set_config() {          # I2C on at 400 kHz (a full OLED frame: 23 ms instead of 93 ms at 100 kHz)
    local config new baud
    baud=$(I2C_BAUDRATE=400000; [ ! -f "$ROOT$DEFAULTS" ] || . "$ROOT$DEFAULTS"; printf '%s' "$I2C_BAUDRATE")
    config=$(config_txt)
    if [ -z "$config" ]; then
        say "no config.txt in /boot/firmware or /boot: switch I2C on and set dtparam=i2c_arm_baudrate=$baud yourself"
        return
    fi
    # `dtoverlay=` ends the scope of an overlay line above (the host's mux): the dtparams are the Pi's own.
    new=$(drop_block "$config"; printf '%s\n[all]\ndtoverlay=\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=%s\n%s\n' \
        "$BEGIN" "$baud" "$END")
    if [ "$new" != "$(cat "$config")" ]; then
        printf '%s\n' "$new" > "$config"
        say "I2C switched on at $((baud / 1000)) kHz in $config: reboot for it to take effect"
    fi
}

install_file() {        # install_file MODE SOURCE DEST
    install -D -m "$1" "$2" "$ROOT$3"
}

install_profiles() {    # the built-in boxes' profiles, each once: the host edits them in place
    local src dest
    for src in "$SRC"/wiring/profiles/*.toml; do
        grep -q '^backend = "sim"' "$src" && continue
        dest="$PROFILES/$(basename "$src")"
        [ -e "$ROOT$dest" ] || install_file 644 "$src" "$dest"
    done
}

service_args() {        # the service's molebox run arguments, as systemd gives them (the unit's, else the file's)
    local args
    args=$(sed -n 's/^Environment="MOLEBOX_ARGS=\(.*\)"$/\1/p' "$SRC/systemd/molebox.service")
    if [ -f "$ROOT$DEFAULTS" ]; then
        args=$(MOLEBOX_ARGS=$args; . "$ROOT$DEFAULTS"; printf '%s' "$MOLEBOX_ARGS")
    fi
    printf '%s' "$args"
}

arg() {                 # arg NAME DEFAULT: the value of --NAME in the service's arguments
    local name=$1 value=$2 word previous=""
    for word in $(service_args); do
        [ "$previous" = "--$name" ] && value=$word
        case "$word" in --"$name"=*) value=${word#--"$name"=} ;; esac
        previous=$word
    done
    printf '%s' "$value"
}

check_profile() {       # the service's profile, held against the header before the service starts with it
    local wiring backend target
    backend=$(arg backend gpio)
    wiring=$(arg wiring "")
    if [ -z "$wiring" ]; then           # molebox run's default by backend (companion/cli.py)
        wiring=$([ "$backend" = ioboard ] && echo ioboard-8 || echo gpio-2)
    fi
    case "$wiring" in
        /home/*|/root/*)
            say "$DEFAULTS runs --wiring $wiring, which the service cannot read (ProtectHome=yes hides /home" \
                "and /root from it): copy it to $PROFILES/ and point --wiring there; the service was not restarted"
            return 1 ;;
        /*) target=$ROOT$wiring ;;
        *) target=$wiring ;;
    esac
    if [ ! -x "$MOLEBOX" ] && ! command -v "$MOLEBOX" >/dev/null; then
        say "cannot check $wiring: no $MOLEBOX (set MOLEBOX=path/to/molebox); the service was not restarted"
        return 1
    fi
    if ! "$MOLEBOX" wiring check "$target"; then
        say "fix $wiring (each problem above has its line and fix), then run this again;" \
            "the service was not restarted"
        return 1
    fi
    case "$wiring" in
        */*) ;;
        *) say "the service runs the built-in $wiring; to change it, point --wiring in $DEFAULTS at" \
               "$PROFILES/$wiring.toml and edit that" ;;
    esac
}

link_command() {        # /usr/local/bin/molebox, unless something else already has the name
    if [ ! -e "$ROOT$LINK" ] && [ ! -L "$ROOT$LINK" ]; then
        mkdir -p "$(dirname "$ROOT$LINK")"
        ln -s "$PREFIX/venv/bin/molebox" "$ROOT$LINK"
    fi
}

dashboard() {           # where the dashboard is, from the address and port the service listens on
    local listen port
    listen=$(arg listen 127.0.0.1)
    port=$(arg port 8080)
    if [ "$listen" = 127.0.0.1 ] || [ "$listen" = localhost ]; then
        echo "http://127.0.0.1:$port/dashboard on this Pi only (--listen $listen in $DEFAULTS)"
    else
        echo "http://$(hostname).local:$port/dashboard"
    fi
}

do_install() {
    if live; then
        [ "$(id -u)" -eq 0 ] || { say "run it as root: sudo $0"; exit 1; }
        local lgpio=python3-lgpio     # Raspberry Pi OS packages it; plain Debian (the system test's VM) does not
        apt-cache show "$lgpio" >/dev/null 2>&1 || { say "apt has no $lgpio here: the gpio backend needs it"; lgpio=; }
        apt-get install -y -qq $APT_PACKAGES $lgpio
    fi
    install_file 644 "$SRC/systemd/molebox.sysusers" "$SYSUSERS"
    if live; then
        systemd-sysusers "$SYSUSERS"
    else
        systemd-sysusers --root="$ROOT" "$ROOT$SYSUSERS"
    fi
    if live; then
        [ -x "$PREFIX/venv/bin/python" ] || python3 -m venv --system-site-packages "$PREFIX/venv"
        "$PREFIX/venv/bin/pip" install -q --disable-pip-version-check --upgrade "$SRC"
    fi
    set_config
    install_file 644 /dev/stdin "$MODULES" <<< "i2c-dev"
    install_profiles
    if [ ! -f "$ROOT$DEFAULTS" ]; then     # the host's choices: written once, never overwritten
        install_file 644 /dev/stdin "$DEFAULTS" <<'EOF'
# molebox run's arguments for the service (molebox run --help). After a change: sudo make install (it
# checks the profile, then restarts the service), or sudo systemctl restart molebox.
# --wiring: a profile in /etc/molebox/ (gpio-2, gpio-2-mux, ioboard-8, ioboard-8-two-buses: edit them
# there; the service cannot read your home directory); --backend ioboard for the IO board; --listen
# 0.0.0.0 opens the dashboard to the LAN on port 8080 (--port).
MOLEBOX_ARGS="--backend gpio --wiring /etc/molebox/gpio-2.toml --listen 0.0.0.0"
# The I2C bus speed make install writes into config.txt: 100000 for display cables too long for 400 kHz
# (docs/build.md, section 4), at 93 ms a frame instead of 23.
#I2C_BAUDRATE=400000
EOF
    fi
    install_file 644 "$SRC/systemd/molebox.service" "$UNIT"
    link_command
    if live; then
        modprobe i2c-dev || true
        systemctl daemon-reload
    fi
    check_profile || exit 1
    if live; then
        systemctl enable molebox.service
        systemctl restart molebox.service
        say "running: systemctl status molebox, journalctl -u molebox -f, molebox doctor"
    fi
    say "dashboard: $(dashboard); the host PIN: sudo molebox pin"
}

remove_profiles() {     # the profiles as installed; one the host edited stays
    local src dest
    for src in "$SRC"/wiring/profiles/*.toml; do
        dest="$ROOT$PROFILES/$(basename "$src")"
        [ -f "$dest" ] || continue
        if cmp -s "$src" "$dest"; then
            rm -f "$dest"
        else
            say "kept $PROFILES/$(basename "$src"): you edited it"
        fi
    done
    rmdir "$ROOT$PROFILES" 2>/dev/null || true
}

do_uninstall() {
    if live; then
        [ "$(id -u)" -eq 0 ] || { say "run it as root: sudo $0 --uninstall"; exit 1; }
        systemctl disable --now molebox.service 2>/dev/null || true
    fi
    rm -f "$ROOT$UNIT" "$ROOT$SYSUSERS" "$ROOT$MODULES" "$ROOT$DEFAULTS"
    remove_profiles
    if [ "$(readlink "$ROOT$LINK" 2>/dev/null)" = "$PREFIX/venv/bin/molebox" ]; then
        rm -f "$ROOT$LINK"
    fi
    rm -rf "$ROOT$PREFIX"
    local config
    config=$(config_txt)
    if [ -n "$config" ] && grep -qxF "$BEGIN" "$config"; then
        drop_block "$config" > "$config.molebox" && mv "$config.molebox" "$config"
        say "the I2C lines are gone from $config (reboot to apply)"
    fi
    if live; then
        systemctl daemon-reload
    fi
    say "uninstalled; the journal in /var/lib/molebox and the molebox user stay"
}

case "${1:-}" in
    "") do_install ;;
    --uninstall) do_uninstall ;;
    *) say "usage: $0 [--uninstall]"; exit 2 ;;
esac
