/// The page at `GET /`: pick a model, drop or pick a photo, see it with its
/// top three classes, or "not sure" when none reaches the threshold. One
/// HTML file, no build step, no external assets; it calls the same protocol
/// endpoints as any client (model metadata, then infer with the photo as a
/// BYTES input in the binary data extension, asking for classification 3).
enum WebPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fovea</title>
<style>
  body { font: 16px/1.4 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
  h1 { font-size: 1.4rem; }
  #drop { border: 2px dashed #999; border-radius: 8px; padding: 2rem; text-align: center; cursor: pointer; }
  #drop.over { border-color: #06c; background: #eef5ff; }
  #preview { max-width: 100%; max-height: 20rem; display: none; margin: 1rem auto; }
  .row { display: flex; align-items: center; gap: .5rem; margin: .3rem 0; }
  .bar { height: .8rem; background: #06c; border-radius: 3px; }
  .label { flex: 1; }
  #status { color: #666; min-height: 1.4em; }
  #results .unsure { font-size: 1.2rem; font-weight: 600; color: #a60; }
  .error { color: #b00; }
  /* Invisible but not display:none, so that the picker (and a test driver) can still use it. */
  .hidden-input { position: absolute; width: 1px; height: 1px; opacity: 0; }
</style>
</head>
<body>
<h1>Fovea</h1>
<p><label>Model <select id="model"></select></label>
   <label>Not sure below <input id="threshold" type="number" min="0" max="100" step="1" value="30">%</label></p>
<div id="drop">Drop a photo here, or <label style="text-decoration:underline">pick one<input id="file" type="file" accept="image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif,.heic,.heif,.avif,.webp" class="hidden-input"></label></div>
<img id="preview" alt="the photo">
<div id="status"></div>
<div id="results"></div>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
let lastResults = null;

async function loadModels() {
  const response = await fetch("/v2/models");
  const { models } = await response.json();
  for (const name of models) $("model").add(new Option(name, name));
  $("status").textContent = models.length ? "" : "No models are served.";
}

async function classify(file) {
  $("preview").src = URL.createObjectURL(file);
  $("preview").style.display = "block";
  $("results").textContent = "";
  $("status").textContent = "Classifying…";
  try {
    const model = $("model").value;
    const metadata = await (await fetch(`/v2/models/${encodeURIComponent(model)}`)).json();
    if (metadata.error) throw new Error(metadata.error);
    const imageInput = metadata.inputs.find((input) => input.datatype === "BYTES");
    if (!imageInput) throw new Error(`model ${model} takes no photos`);
    const photo = new Uint8Array(await file.arrayBuffer());
    const header = new TextEncoder().encode(JSON.stringify({
      inputs: [{ name: imageInput.name, shape: [1], datatype: "BYTES", parameters: { binary_data_size: photo.length + 4 } }],
      outputs: [{ name: metadata.outputs[0].name, parameters: { classification: 3 } }],
    }));
    const body = new Uint8Array(header.length + 4 + photo.length);
    body.set(header, 0);
    new DataView(body.buffer).setUint32(header.length, photo.length, true);
    body.set(photo, header.length + 4);
    const response = await fetch(`/v2/models/${encodeURIComponent(model)}/infer`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream", "Inference-Header-Content-Length": String(header.length) },
      body,
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
    // "score:index:label", best first.
    lastResults = answer.outputs[0].data.map((text) => {
      const [score, index, ...label] = text.split(":");
      return { confidence: Number(score), label: label.join(":") || `class ${index}` };
    });
    $("status").textContent = "";
    show();
  } catch (error) {
    $("status").innerHTML = "";
    const message = document.createElement("span");
    message.className = "error";
    message.textContent = `Error: ${error.message}`;
    $("status").append(message);
  }
}

function show() {
  if (!lastResults) return;
  const threshold = Number($("threshold").value) / 100;
  const results = $("results");
  results.textContent = "";
  if (!(lastResults[0].confidence >= threshold)) {
    const unsure = document.createElement("div");
    unsure.className = "unsure";
    unsure.textContent = `not sure (best: ${lastResults[0].label} ${(lastResults[0].confidence * 100).toFixed(1)}%)`;
    results.append(unsure);
    return;
  }
  for (const { label, confidence } of lastResults) {
    const row = document.createElement("div");
    row.className = "row";
    const name = document.createElement("span");
    name.className = "label";
    name.textContent = `${label} ${(confidence * 100).toFixed(1)}%`;
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.style.width = `${Math.max(1, confidence * 200)}px`;
    row.append(name, bar);
    results.append(row);
  }
}

$("file").addEventListener("change", () => { if ($("file").files[0]) classify($("file").files[0]); });
$("threshold").addEventListener("input", show);
const drop = $("drop");
drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  drop.classList.remove("over");
  if (event.dataTransfer.files[0]) classify(event.dataTransfer.files[0]);
});
loadModels().catch((error) => { $("status").textContent = `Error: ${error.message}`; });
</script>
</body>
</html>
"""#
}
