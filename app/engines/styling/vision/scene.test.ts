import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import sharp from "sharp";
import { newPlane } from "~/engines/styling/vision/planes.server";
import { guidedFilter, looksLikePerson } from "~/engines/styling/vision/refine-mask.server";
import { decodePicture, sceneOf, type Scene } from "~/engines/styling/vision/scene.server";
import {
  findWorkerFile,
  stopVision,
  workersStarted,
} from "~/engines/styling/vision/vision-client.server";

const fixtures = path.resolve(
  path.dirname(url.fileURLToPath(import.meta.url)),
  "../../../../tests/fixtures",
);
const read = (name: string) => fs.readFileSync(path.join(fixtures, name));

async function sceneFor(input: Buffer): Promise<Scene> {
  const picture = await decodePicture(input, 2048);
  return sceneOf(picture.rgb, picture.width, picture.height);
}

const at = (scene: Scene, x: number, y: number) =>
  scene.mask.data[Math.round(y) * scene.width + Math.round(x)];

afterAll(() => stopVision());

describe("the style engine's view of a picture", () => {
  it("finds the person and the face, with landmarks and irises, in the portrait", async () => {
    const scene = await sceneFor(read("portrait.png"));
    expect(scene.subject).toBe("person");
    expect(scene.faces).toHaveLength(1);
    const [x, y, w, h] = scene.faces[0].box;
    // The face is in the upper middle of the fixture.
    expect(x + w / 2).toBeGreaterThan(180);
    expect(x + w / 2).toBeLessThan(270);
    expect(y + h / 2).toBeLessThan(180);
    expect(scene.faces[0].mesh).toHaveLength(468);
    expect(scene.faces[0].irises).toHaveLength(2);
    for (const iris of scene.faces[0].irises) expect(iris.radius).toBeGreaterThan(2);
    // Mask: the face and the suit are person; the backdrop top right is not.
    expect(at(scene, x + w / 2, y + h / 2)).toBeGreaterThan(0.9);
    expect(at(scene, 230, 400)).toBeGreaterThan(0.9);
    expect(at(scene, 340, 20)).toBeLessThan(0.1);
    expect(scene.mask.width).toBe(512);
  });

  it("finds the person and the face in the other portraits (a man in profile, greyscale; an older woman)", async () => {
    for (const name of ["portrait-camera.png", "portrait-hopper.jpg"]) {
      const scene = await sceneFor(read(name));
      expect(scene.subject, name).toBe("person");
      expect(scene.faces, name).toHaveLength(1);
      expect(scene.faces[0].irises, name).toHaveLength(2);
    }
  });

  it("falls back to a centre-weighted subject for a cat (no face, no person)", async () => {
    const scene = await sceneFor(read("cat.png"));
    expect(scene.faces).toEqual([]);
    expect(scene.subject).toBe("centre");
    expect(at(scene, scene.width / 2, scene.height / 2)).toBeGreaterThan(0.9);
    expect(at(scene, 1, 1)).toBeLessThan(0.1);
  });

  it("falls back for a landscape (the rocket) and a still life (coffee)", async () => {
    for (const name of ["rocket.jpg", "coffee.png"]) {
      const scene = await sceneFor(read(name));
      expect(scene.faces, name).toEqual([]);
      expect(scene.subject, name).toBe("centre");
    }
  });

  it("works on a 64 px picture and on one too small for the models", async () => {
    const small = await sceneFor(await sharp(read("portrait.png")).resize(64, 64).png().toBuffer());
    expect([small.width, small.height]).toEqual([64, 64]);
    expect(small.mask.data).toHaveLength(64 * 64);
    const tiny = await sceneFor(await sharp(read("portrait.png")).resize(20, 12).png().toBuffer());
    expect(tiny.subject).toBe("centre");
    expect(tiny.faces).toEqual([]);
  });

  it("still finds the person in a greyscale copy", async () => {
    const scene = await sceneFor(await sharp(read("portrait.png")).greyscale().png().toBuffer());
    expect(scene.subject).toBe("person");
    expect(scene.faces.length).toBe(1);
  });

  it("segments a very wide picture around the face, not squashed", async () => {
    const wide = await sharp({
      create: { width: 1800, height: 512, channels: 3, background: "#d8d8d8" },
    })
      .composite([{ input: read("portrait.png"), left: 1100, top: 0 }])
      .png()
      .toBuffer();
    const scene = await sceneFor(wide);
    expect(scene.subject).toBe("person");
    const [x, y, w, h] = scene.faces[0].box;
    expect(x + w / 2).toBeGreaterThan(1100 + 180);
    // The hair (above the face box's middle) is part of the person.
    expect(at(scene, x + w / 2, y + h * 0.1)).toBeGreaterThan(0.8);
    expect(at(scene, 100, 300)).toBeLessThan(0.1);
  });

  it("loaded the models in one worker for all of the above", () => {
    expect(workersStarted).toBe(1);
    expect(findWorkerFile()).toMatch(/vision-worker\.mjs$/);
  });
});

describe("mask refinement", () => {
  it("snaps a blurry mask edge to the picture's own edge (no halo)", () => {
    const width = 80;
    const height = 20;
    const guide = newPlane(width, height);
    const input = newPlane(width, height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        guide.data[y * width + x] = x < 40 ? 0.8 : 0.2;
        // The model's edge: a ramp 16 px wide around x = 40.
        input.data[y * width + x] = Math.min(1, Math.max(0, (48 - x) / 16));
      }
    }
    const out = guidedFilter(guide, input, 4, 0.004);
    const row = 10 * width;
    // The model's ramp falls 1/16 per pixel; the refined mask drops sharply where the picture's edge is.
    expect(out.data[row + 39] - out.data[row + 40]).toBeGreaterThan(0.25);
    expect(out.data[row + 30]).toBeGreaterThan(0.9);
  });

  it("believes a mask only when it is clear-cut", () => {
    const clear = new Uint8Array(100).fill(0);
    clear.fill(255, 0, 40);
    expect(looksLikePerson(clear)).toBe(true);
    const vague = new Uint8Array(100).fill(120);
    vague.fill(255, 0, 40);
    expect(looksLikePerson(vague)).toBe(false);
  });
});
