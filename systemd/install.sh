#!/usr/bin/env bash
# Install molebox as a service on Raspberry Pi OS Bookworm (docs/pi.md). Run from the checkout, as root:
#   sudo systemd/install.sh               install, or update after a git pull (safe to run again)
#   sudo systemd/install.sh --uninstall   undo it: service, venv, config.txt lines, modules
# The uninstall keeps the game journal (/var/lib/molebox) and the molebox user, as systemd keeps system
# users; `sudo userdel molebox && sudo rm -r /var/lib/molebox` removes those too.
# ROOT=DIR puts the files under DIR and leaves the running system alone (no apt, pip or systemctl).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
ROOT=${ROOT:-}
PREFIX=/opt/molebox
UNIT=/etc/systemd/system/molebox.service
SYSUSERS=/etc/sysusers.d/molebox.conf
MODULES=/etc/modules-load.d/molebox.conf
DEFAULTS=/etc/default/molebox
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
    local config new
    config=$(config_txt)
    if [ -z "$config" ]; then
        say "no config.txt in /boot/firmware or /boot: switch I2C on and set dtparam=i2c_arm_baudrate=400000 yourself"
        return
    fi
    new=$(drop_block "$config"; printf '%s\n[all]\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n%s\n' "$BEGIN" "$END")
    if [ "$new" != "$(cat "$config")" ]; then
        printf '%s\n' "$new" > "$config"
        say "I2C switched on at 400 kHz in $config: reboot for it to take effect"
    fi
}

install_file() {        # install_file MODE SOURCE DEST
    install -D -m "$1" "$2" "$ROOT$3"
}

do_install() {
    if live; then
        [ "$(id -u)" -eq 0 ] || { say "run it as root: sudo $0"; exit 1; }
        local lgpio=python3-lgpio     # Raspberry Pi OS packages it; plain Debian (the system test's VM) does not
        apt-cache show "$lgpio" >/dev/null 2>&1 || { say "apt has no $lgpio here: the gpio backend needs it"; lgpio=; }
        apt-get install -y -qq python3-venv $lgpio i2c-tools
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
    if [ ! -f "$ROOT$DEFAULTS" ]; then     # the host's choices: written once, never overwritten
        install_file 644 /dev/stdin "$DEFAULTS" <<'EOF'
# molebox run's arguments for the service (molebox run --help); after a change: sudo systemctl restart molebox
# --wiring: gpio-2, gpio-2-mux, ioboard-8 or a TOML file; --listen 0.0.0.0 opens the web panel to the LAN.
MOLEBOX_ARGS="--backend gpio --wiring gpio-2 --listen 0.0.0.0"
EOF
    fi
    install_file 644 "$SRC/systemd/molebox.service" "$UNIT"
    if live; then
        modprobe i2c-dev || true
        systemctl daemon-reload
        systemctl enable molebox.service
        systemctl restart molebox.service
        say "running: systemctl status molebox, journalctl -u molebox -f, molebox doctor"
    fi
}

do_uninstall() {
    if live; then
        [ "$(id -u)" -eq 0 ] || { say "run it as root: sudo $0 --uninstall"; exit 1; }
        systemctl disable --now molebox.service 2>/dev/null || true
    fi
    rm -f "$ROOT$UNIT" "$ROOT$SYSUSERS" "$ROOT$MODULES" "$ROOT$DEFAULTS"
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
