// Optional sounds (off by default): a short tone when it is your turn, made with WebAudio.
export class Sound {
  constructor() {
    this.on = false;
    this.ac = null;
  }

  enable(on) {
    this.on = on;
    if (on && !this.ac && window.AudioContext) this.ac = new AudioContext();
  }

  beep(freq = 660, ms = 120) {
    if (!this.on || !this.ac) return;
    const o = this.ac.createOscillator();
    const g = this.ac.createGain();
    o.frequency.value = freq;
    g.gain.value = 0.05;
    o.connect(g).connect(this.ac.destination);
    o.start();
    o.stop(this.ac.currentTime + ms / 1000);
  }
}
