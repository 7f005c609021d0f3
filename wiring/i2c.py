"""Each of the Pi's I2C buses a profile uses: its pull-ups counted, and the cable they allow at 400 kHz.

On a bus the pull-ups of every part act together: the Pi's 1.8 kOhm on I2C1 (none on I2C0, so the hub
adds a pair there), a mux breakout's, every module hanging on the bus itself, and behind a mux the
module on the selected channel (one at a time). Their parallel resistance sets both the current a
part must sink to pull a line low and how much capacitance the line may have to rise in time.
"""
from __future__ import annotations

from dataclasses import dataclass

from .hardware import (CABLE_PF_PER_M, GPIO_VOLTS, I2C0_PULLUP_OHMS, I2C_PART_PF, I2C_RISE_NS, MODULE_PULLUP_OHMS,
                       MUX_PULLUP_OHMS, PI_I2C1_PULLUP_OHMS)
from .header import I2C_GPIO, controllers
from .profile import Profile

LOW_V = 0.4                 # the low level a part must reach while sinking I2C_SINK_MA
RISE = 0.8473               # ln(0.7 / 0.3): a line's rise from 30% to 70%, in RC


@dataclass(frozen=True)
class Bus:
    number: int
    pullups: tuple[tuple[str, int], ...]    # (whose, ohms)
    parts: int                              # what hangs on the wires at once, the Pi included

    @property
    def ohms(self) -> float:
        return 1 / sum(1 / ohms for _, ohms in self.pullups)

    @property
    def sink_ma(self) -> float:
        """What a part pulling a line to 0.4 V sinks."""
        return (GPIO_VOLTS - LOW_V) / self.ohms * 1000

    @property
    def max_pf(self) -> float:
        return I2C_RISE_NS * 1000 / (RISE * self.ohms)

    @property
    def cable_m(self) -> float:
        """All the cable the bus may have (the hub's leads and the selected channel's together)."""
        return (self.max_pf - self.parts * I2C_PART_PF) / CABLE_PF_PER_M

    def summary(self) -> str:
        who = ", ".join(f"{whose} {ohms / 1000:g}k" for whose, ohms in self.pullups)
        return (f"I2C{self.number} ({'/'.join(f'GPIO{g}' for g in I2C_GPIO[self.number])}): {who}: "
                f"{self.ohms / 1000:.2f} kOhm together; a part sinks {self.sink_ma:.1f} mA at 0.4 V; rises in 300 ns "
                f"with up to {self.max_pf:.0f} pF: {self.cable_m:.1f} m of cable in all")


def buses(profile: Profile) -> list[Bus]:
    """I2C1 first, then I2C0, for each the profile puts parts on."""
    out = []
    for number in sorted(controllers(profile) & set(I2C_GPIO), reverse=True):
        pullups = [("the Pi", PI_I2C1_PULLUP_OHMS) if number == 1 else ("the hub's pair", I2C0_PULLUP_OHMS)]
        muxes = [mux for mux in profile.muxes if mux.parent == number]
        pullups += [("mux breakout", MUX_PULLUP_OHMS)] * len(muxes)
        direct = [name for name, spec in profile.displays().items() if spec.bus == number]
        pullups += [(f"{name.replace('seat', 'seat ')} module", MODULE_PULLUP_OHMS) for name in direct]
        channel = any(profile.mux_of(spec.bus) in muxes for spec in profile.displays().values())
        pullups += [("the selected channel's module", MODULE_PULLUP_OHMS)] * channel
        out.append(Bus(number, tuple(pullups), 1 + len(muxes) + len(direct) + channel))
    return out
