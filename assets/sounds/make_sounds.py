#!/usr/bin/env python3
"""Synthesises the game's sounds into this folder (issue 16 item 4).

Every `.wav` beside this script is made here, from noise, sine waves and a plucked string
(Karplus-Strong), with a fixed random seed: running it again writes the same bytes. Python's
standard library only. Run it from anywhere:

    python3 assets/sounds/make_sounds.py

The files are 16-bit mono PCM at 22,050 Hz. `src/ui/sound/cue.rs` names which file each cue
plays; a player may replace any of them with their own WAV of any length.
"""

import math
import os
import random
import struct
import wave

RATE = 22050
HERE = os.path.dirname(os.path.abspath(__file__))


def silence(secs):
    return [0.0] * int(secs * RATE)


def mix(into, sound, at_secs, gain=1.0):
    """Adds `sound` into `into` starting at `at_secs`, growing `into` as needed."""
    start = int(at_secs * RATE)
    end = start + len(sound)
    if end > len(into):
        into.extend([0.0] * (end - len(into)))
    for i, s in enumerate(sound):
        into[start + i] += s * gain
    return into


def lowpass(samples, cutoff_hz):
    """One-pole low-pass filter."""
    a = 1.0 - math.exp(-2.0 * math.pi * cutoff_hz / RATE)
    out, y = [], 0.0
    for s in samples:
        y += a * (s - y)
        out.append(y)
    return out


def bandpass(samples, centre_hz, q):
    """A two-pole resonator (RBJ band-pass, constant peak gain)."""
    w = 2.0 * math.pi * centre_hz / RATE
    alpha = math.sin(w) / (2.0 * q)
    b0, b2 = alpha, -alpha
    a0, a1, a2 = 1.0 + alpha, -2.0 * math.cos(w), 1.0 - alpha
    x1 = x2 = y1 = y2 = 0.0
    out = []
    for x in samples:
        y = (b0 * x + b2 * x2 - a1 * y1 - a2 * y2) / a0
        x2, x1, y2, y1 = x1, x, y1, y
        out.append(y)
    return out


def noise(rng, secs):
    return [rng.uniform(-1.0, 1.0) for _ in range(int(secs * RATE))]


def decay(samples, secs_to_fade, attack_secs=0.002):
    """An exponential fade (to about -60 dB at `secs_to_fade`) after a short linear attack."""
    k = 6.9 / max(secs_to_fade, 1e-4)
    attack = max(1, int(attack_secs * RATE))
    out = []
    for i, s in enumerate(samples):
        t = i / RATE
        env = min(1.0, i / attack) * math.exp(-k * t)
        out.append(s * env)
    return out


def sine(freq, secs, sweep_to=None):
    """A sine wave, gliding exponentially to `sweep_to` Hz over its length if given."""
    n = int(secs * RATE)
    out, phase = [], 0.0
    for i in range(n):
        f = freq if sweep_to is None else freq * (sweep_to / freq) ** (i / n)
        phase += 2.0 * math.pi * f / RATE
        out.append(math.sin(phase))
    return out


def pluck(rng, freq, secs, damping=0.996):
    """Karplus-Strong plucked string: a bowstring's twang."""
    period = int(RATE / freq)
    buf = [rng.uniform(-1.0, 1.0) for _ in range(period)]
    out = []
    for i in range(int(secs * RATE)):
        j = i % period
        s = buf[j]
        out.append(s)
        buf[j] = damping * 0.5 * (s + buf[(j + 1) % period])
    return out


def normalise(samples, peak=0.8):
    top = max(1e-9, max(abs(s) for s in samples))
    return [s * peak / top for s in samples]


def fade_out(samples, secs=0.02):
    n = min(len(samples), int(secs * RATE))
    for i in range(n):
        samples[len(samples) - 1 - i] *= i / n
    return samples


def write(name, samples, peak=0.8):
    samples = fade_out(normalise(samples, peak))
    path = os.path.join(HERE, name + ".wav")
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(
            b"".join(
                struct.pack("<h", max(-32767, min(32767, int(s * 32767)))) for s in samples
            )
        )
    print(f"{path}: {len(samples) / RATE:.2f} s")


# --- the pieces ------------------------------------------------------------------------------


def clop(rng, pitch=1.0):
    """One hoof on hard ground: a hollow knock (a resonated noise burst) with a low body."""
    knock = decay(bandpass(noise(rng, 0.08), 650.0 * pitch, 4.0), 0.05, 0.0008)
    body = decay(sine(180.0 * pitch, 0.08, sweep_to=110.0 * pitch), 0.06, 0.001)
    return mix(knock, body, 0.0, 0.35)


def step(rng):
    """One foot on earth: a soft, dull thud with a scuff."""
    thud = decay(lowpass(noise(rng, 0.12), 300.0), 0.09, 0.004)
    scuff = decay(bandpass(noise(rng, 0.1), 2500.0, 1.0), 0.06, 0.01)
    return mix(thud, scuff, 0.02, 0.15)


def hoofbeats(rng, beats, bar_secs, bars):
    """Hooves in a rhythm: `beats` are offsets within a bar of `bar_secs`, for `bars` bars."""
    out = silence(0.01)
    for bar in range(bars):
        for k, offset in enumerate(beats):
            jitter = rng.uniform(-0.008, 0.008)
            pitch = rng.uniform(0.9, 1.1) * (1.0 if k % 2 == 0 else 0.93)
            gain = rng.uniform(0.75, 1.0)
            mix(out, clop(rng, pitch), bar * bar_secs + offset + jitter, gain)
    return out


def make_all():
    rng = random.Random(1066)

    # Hooves by gait (H2): the walk is four even beats, the trot two, the canter three and a
    # pause, the gallop four quick beats and a longer pause. About 1.2 s each.
    write("hooves-walk", hoofbeats(rng, [0.0, 0.3, 0.6, 0.9], 1.2, 1))
    write("hooves-trot", hoofbeats(rng, [0.0, 0.04, 0.3, 0.34], 0.6, 2))
    write("hooves-canter", hoofbeats(rng, [0.0, 0.11, 0.2], 0.42, 3))
    write("hooves-gallop", hoofbeats(rng, [0.0, 0.06, 0.14, 0.2], 0.36, 3))

    # Men on foot: four steps.
    out = silence(0.01)
    for k in range(4):
        mix(out, step(rng), k * 0.28 + rng.uniform(-0.01, 0.01), 1.0 if k % 2 == 0 else 0.8)
    write("steps", out)

    # A clash of blades: inharmonic partials of struck steel over a bright transient.
    ring = silence(0.9)
    for freq, gain, fade in [(1240, 1.0, 0.7), (1873, 0.7, 0.5), (2631, 0.5, 0.4),
                             (3412, 0.35, 0.3), (4700, 0.2, 0.2)]:
        mix(ring, decay(sine(freq, 0.9), fade, 0.001), 0.0, gain)
    hit = decay(bandpass(noise(rng, 0.1), 3000.0, 0.8), 0.05, 0.0005)
    second = decay(sine(1530, 0.5), 0.35, 0.001)
    clash = mix(mix(ring, hit, 0.0, 2.0), second, 0.07, 0.5)
    write("clash", clash)

    # A bow: the string's low twang and the arrow's rising hiss.
    twang = decay(pluck(rng, 98.0, 0.5, 0.993), 0.4, 0.001)
    hiss_noise = bandpass(noise(rng, 0.45), 1800.0, 1.5)
    hiss = [s * math.sin(math.pi * i / len(hiss_noise)) for i, s in enumerate(hiss_noise)]
    write("bow", mix(twang, hiss, 0.03, 0.6))

    # A hit: a blow landing on a body or mail, a dull thump with a little rattle.
    thump = decay(sine(120.0, 0.3, sweep_to=55.0), 0.22, 0.002)
    smack = decay(lowpass(noise(rng, 0.15), 900.0), 0.08, 0.001)
    rattle = decay(bandpass(noise(rng, 0.25), 4200.0, 2.0), 0.15, 0.01)
    write("hit", mix(mix(thump, smack, 0.0, 1.2), rattle, 0.02, 0.25))

    # A fall: a heavy body and its harness going down, two thumps and a settling rustle.
    fall = decay(sine(90.0, 0.5, sweep_to=40.0), 0.4, 0.003)
    mix(fall, decay(lowpass(noise(rng, 0.3), 500.0), 0.2, 0.002), 0.0, 1.5)
    mix(fall, decay(sine(70.0, 0.4, sweep_to=35.0), 0.3, 0.003), 0.16, 0.8)
    mix(fall, decay(bandpass(noise(rng, 0.5), 3500.0, 1.2), 0.4, 0.05), 0.1, 0.2)
    write("fall", fall)

    # Dice: two bone dice rattling on a board, a few quick clicks each.
    dice = silence(0.6)
    t = 0.0
    for k in range(9):
        t += rng.uniform(0.025, 0.09) * (1.0 + k * 0.08)
        tick = decay(bandpass(noise(rng, 0.04), rng.uniform(2200.0, 3800.0), 6.0), 0.02, 0.0005)
        mix(dice, tick, t, rng.uniform(0.5, 1.0) * (1.0 - k * 0.06))
    write("dice", dice)

    # A UI click: a short wooden tick.
    click = decay(bandpass(noise(rng, 0.03), 1800.0, 5.0), 0.015, 0.0003)
    write("click", mix(click, decay(sine(900.0, 0.03), 0.01), 0.0, 0.4), peak=0.5)


if __name__ == "__main__":
    make_all()
