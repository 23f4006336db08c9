/**
 * npm run content:new -- guide <model-slug> — starts a gateway onboarding guide for an editor: writes
 * content/guides/<model-slug>.mdx with the frontmatter and every section the guide checks ask for
 * (tests/content/guides.test.ts), in order, each step ending in a **Checkpoint:** line.
 *
 *   npm run content:new -- guide acme-x1            writes content/guides/acme-x1.mdx
 *   npm run content:new -- guide acme-x1 --dir D    writes D/guides/acme-x1.mdx (D is a content directory)
 *
 * What only the editor knows is marked TODO. The placeholders are values the checks accept (a real
 * difficulty, a free position in the model picker, today's date), so the new file passes them from the
 * start and a forgotten TODO is found by searching for it, not by a confusing schema error. The text
 * shared by every guide (status light, finding the device, setup page, claiming) is filled in as the
 * other guides word it. The file is never overwritten: an existing guide is refused.
 */
import fs from 'node:fs';
import path from 'node:path';

const USAGE = `Usage: npm run content:new -- guide <model-slug> [--dir <content directory>]

  <model-slug>  the guide's file name and web address: lower-case words joined by hyphens,
                for example "acme-x1" gives content/guides/acme-x1.mdx and /guides/acme-x1
  --dir         another content directory (default: ./content)`;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The company's own gateways come first in the model picker (lower order than every other vendor). */
const OWN_VENDOR = 'Meshfront';
const LOCALE_SUFFIX = /\.[a-z]{2}_[A-Z]{2}\.mdx?$/;

/** A request the command turns down: exit code 1 with the message (and the usage when it was misused). */
class UsageError extends Error {}
class Refusal extends Error {}

interface Options {
  slug: string;
  dir: string;
}

function parseArgs(argv: readonly string[]): Options {
  const positional: string[] = [];
  let dir = 'content';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (arg === '--dir') {
      const value = argv[++i];
      if (!value || value.startsWith('--')) throw new UsageError('--dir needs a directory, e.g. --dir content');
      dir = value;
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option "${arg}"`);
    } else positional.push(arg);
  }
  const [kind, slug, ...rest] = positional;
  if (kind !== 'guide')
    throw new UsageError(
      kind === undefined
        ? 'say what to create: guide'
        : `"${kind}" is not something this command creates; it creates: guide`,
    );
  if (slug === undefined) throw new UsageError('the model slug is missing, e.g. acme-x1');
  if (rest.length > 0) throw new UsageError(`one model slug at a time (also got "${rest.join('", "')}")`);
  if (!SLUG.test(slug))
    throw new UsageError(
      `"${slug}" is not a valid model slug: use lower-case letters and digits, words joined by single hyphens (e.g. acme-x1)`,
    );
  return { slug, dir };
}

/** "acme-x1" → "Acme X1": a readable stand-in until the editor writes the name printed on the unit. */
function titleFromSlug(slug: string): string {
  return slug
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** Today in the editor's own time zone, as YYYY-MM-DD. */
function today(): string {
  const d = new Date();
  return [d.getFullYear(), String(d.getMonth() + 1).padStart(2, '0'), String(d.getDate()).padStart(2, '0')].join('-');
}

/**
 * A position in the model picker no other guide has: after every other guide, or for the company's own
 * gateways after the last of them (which sort before every other vendor).
 */
function freeOrder(guidesDir: string, vendor: string): number {
  const english = fs.readdirSync(guidesDir).filter((f) => /\.mdx?$/.test(f) && !LOCALE_SUFFIX.test(f));
  const own: number[] = [];
  const all: number[] = [];
  for (const file of english) {
    const text = fs.readFileSync(path.join(guidesDir, file), 'utf8');
    const order = /^order:\s*(\d+)\s*$/m.exec(text);
    if (!order) continue;
    all.push(Number(order[1]));
    if (/^vendor:\s*["']?([^"'\n]*)["']?\s*$/m.exec(text)?.[1]?.trim() === OWN_VENDOR) own.push(Number(order[1]));
  }
  if (vendor === OWN_VENDOR) return own.length > 0 ? Math.max(...own) + 1 : 1;
  return all.length > 0 ? Math.max(...all) + 10 : 10;
}

/** The vendor a slug suggests: its first word ("acme-x1" → "Acme"), the company for "meshfront-…". */
function vendorFromSlug(slug: string): string {
  return slug.startsWith('meshfront-') ? OWN_VENDOR : titleFromSlug(slug.split('-')[0]!);
}

function guideTemplate(slug: string, vendor: string, order: number, updated: string): string {
  const model = titleFromSlug(slug);
  return `---
# TODO: replace every TODO in this file (frontmatter and text), then run: npx vitest run tests/content/guides.test.ts
title: "Set up your ${model} with Meshfront OS"
# TODO: the model name as printed on the unit (also in the title above)
model: "${model}"
# TODO: the maker's name; guides of one vendor are grouped together in the model picker
vendor: "${vendor}"
description: "TODO: one sentence, at most 160 characters, on how this model is flashed, connected and claimed."
# Position in the model picker: a number no other guide uses (most guides use steps of 10, in vendor order)
order: ${order}
updated: ${updated}
difficulty: moderate # TODO: one of easy | moderate | advanced
time: "TODO: about how long it takes, e.g. 30 minutes"
flashMethod: sd-card # TODO: one of sd-card | usb-boot | emmc | network
# Support articles listed under the guide; only these ids are allowed: see content/README.md
relatedArticles: ["gateways/flashing-meshfront-os", "getting-started/create-a-kadena-wallet", "wallet-and-rewards/claiming-a-gateway", "troubleshooting/gateway-offline", "troubleshooting/led-codes", "gateways/antenna-placement"]
---

TODO: one or two sentences about the ${model}: what kind of device it is and how Meshfront OS gets onto it.

## What you need

- Your **${model}** and its original power supply.
- The LoRa antenna that came with it, or another antenna for the same frequency band.
- TODO: what flashing needs on this model, for example a microSD card of at least 16 GB and a card reader.
- The Meshfront OS image for this model from [Downloads](/downloads).
- An Ethernet cable and a free port on your router, **or** the name and password of your 2.4 GHz Wi-Fi network.
- A phone or computer with a web browser on the same network.
- A Kadena wallet with a **k: account** that can sign messages. See [Create a Kadena wallet](/support/getting-started/create-a-kadena-wallet).

Typical time: **TODO: the same as time in the frontmatter**.

## Before you start

> **Warning:** Installing Meshfront OS replaces the software that is on the ${model} now. TODO: say whether the old software can be backed up first, and how.

> **Warning:** Always connect the antenna before you connect power. A LoRa radio that transmits without an antenna can reflect its own power back into the radio and damage it permanently. This applies every time you power the unit, not only the first time.

> **Caution:** Use the power supply that came with the ${model}, or one with exactly the same voltage, polarity and connector. Underpowered supplies are the most common cause of a gateway that restarts at random or corrupts its storage.

### Identify your unit

TODO: where the model name and the frequency band are printed on the unit. If your unit has a different model name, check the model list on [Meshfront OS](/meshfront-os).

### How Meshfront OS uses the status light

Meshfront OS drives one status light on the unit and uses the same patterns on every supported gateway:

| Status light | What Meshfront OS is doing | Typical duration |
| --- | --- | --- |
| Off | No power, or the operating system has not started yet | — |
| Slow blink (about once per second) | Booting | 1–3 minutes; up to 5 minutes on the very first boot |
| Fast blink (about four times per second) | Running, waiting for a network connection or for the Meshfront network service | Until the network is up; normally under 2 minutes |
| Two short blinks, then a pause | Wi-Fi setup mode: the \`Meshfront-Setup-XXXX\` network is open | Up to 30 minutes, or until Wi-Fi is configured |
| Solid | Connected to the Meshfront network service | Normal operation |
| Three short blinks, then a pause | Radio problem: the LoRa radio was not found or failed to start | Until fixed |

\`XXXX\` is always the last four characters of the device's MAC address. The same state is shown in words on the **Status** tab of the local setup page, so you can check it there if the light is hard to see.

TODO: which light on the ${model} is the status light.

## Step 1: Flash Meshfront OS

TODO: how Meshfront OS is written onto this model, one action per numbered step.

1. On [Downloads](/downloads), pick **${model}** and download the Meshfront OS image. Check the checksum shown on the page.
2. TODO: write the image (for example with balenaEtcher to a microSD card).
3. TODO: put the card or storage back into the unit, still without power.

**Checkpoint:** TODO: what the reader sees when flashing worked, for example "the flashing tool reported success and the unit is unplugged, so all lights are off". If it did not work, see [Troubleshooting](#troubleshooting).

## Step 2: Connect the antenna

1. Make sure the ${model} is unplugged.
2. TODO: where the antenna connector is. Screw the antenna (or the antenna cable) on until it is finger-tight. Do not use pliers; overtightening damages the connector.
3. Place the unit as high as practical and away from metal surfaces and other electronics.
4. Note the antenna's gain in dBi (printed on the antenna or its packaging); the setup page asks for it in Step 5.

For help choosing an antenna and where to put it, see [Choosing an antenna](/support/gateways/choosing-an-antenna) and [Antenna placement](/support/gateways/antenna-placement).

**Checkpoint:** the antenna is firmly attached, the unit is still unplugged and all lights are off.

## Step 3: Power and network

TODO: which power supply or PoE injector this model uses.

Choose **one** of the two branches below. Ethernet is the most reliable and the easiest for the first setup; you can switch to Wi-Fi later from the setup page.

### Ethernet

1. Plug an Ethernet cable into the Ethernet port of the unit and into a free port on your router (or a switch connected to it).
2. Connect the power supply.
3. Watch the status light. Leave the unit alone while it boots; the first boot can take up to 5 minutes.

Your router gives the gateway an address automatically (DHCP). No other settings are needed.

**Checkpoint:** within a few seconds of power-on the status light starts a **slow blink** for 1–3 minutes (up to 5 minutes on the very first boot), then switches to a **fast blink** while it connects, and turns **solid** within about 2 minutes once it has reached the Meshfront network service.

### Wi-Fi

TODO: if this model has no Wi-Fi, say so here and keep only the Ethernet steps.

1. Leave the Ethernet port empty and connect the power supply.
2. Wait until the status light shows **two short blinks, then a pause** (about 2 minutes after the boot has finished).
3. On your phone or laptop, join the Wi-Fi network **\`Meshfront-Setup-XXXX\`**. It has no password and is only used for setup.
4. Your device usually opens the setup page automatically. If not, open **http://192.168.4.1** in a browser.
5. On first visit, create an admin password for the setup page and write it down.
6. Under **Network → Wi-Fi**, choose your home network (2.4 GHz), enter its password and select **Connect**. The setup network closes and the gateway joins your Wi-Fi.
7. Reconnect your phone or laptop to your normal Wi-Fi.

If you do nothing, the setup network closes after 30 minutes; unplug and reconnect power to open it again. See [Ethernet vs Wi-Fi](/support/gateways/ethernet-vs-wifi) for which to choose.

**Checkpoint:** within 2 minutes of selecting **Connect**, the status light changes from two short blinks to **fast blink** and then to **solid**.

## Step 4: Find the device on your network

Once the status light is solid (or fast blinking), find the gateway from a computer or phone **on the same network**:

1. Open **http://meshfront.local** in a browser. This works when there is one Meshfront gateway on your network.
2. If you have several, or the address does not open, use the gateway's own name: **http://meshfront-XXXX.local**, where \`XXXX\` is the last four characters of its MAC address.
3. If neither name works, open your router's admin page, look at the list of connected devices for one called **meshfront-XXXX**, and note its IP address, for example \`192.168.1.57\`.

More ways to find it are in [I can't find my device on the network](/support/troubleshooting/cannot-find-device-on-network).

**Checkpoint:** the status light is **solid** (or still fast blinking if the network service is not reachable yet), and you know an address for the gateway: \`meshfront.local\`, \`meshfront-XXXX.local\` or its IP address.

## Step 5: Open the local setup page

The local setup page runs on the gateway itself. It works only from your own network.

1. Open the address from Step 4 in a browser, for example **http://meshfront-XXXX.local**. (The browser may say the page is "not secure"; that is expected for a page served from your own network.)
2. If you did not already do it during Wi-Fi setup, create an admin password. Keep it safe: anyone with it can change the gateway's settings.
3. **Region:** choose the frequency plan for the country where the gateway operates. It must also match the frequency band of the hardware. A mismatch means the radio will not work and may be illegal to operate.
4. **Location:** place the pin on the map where the gateway stands and enter the antenna height above ground.
5. **Antenna:** enter the gain of your antenna in dBi.
6. Select **Save**. The radio restarts with the new settings, which takes about 30 seconds.
7. Open the **Status** tab. It should show **Radio: running** with your region, and **Network service: connected**.

**Checkpoint:** after you save, the status light may fast blink for up to 30 seconds while the radio restarts, then returns to **solid**. The **Status** tab shows the radio running in your region.

## Step 6: Claim it with your Kadena wallet

Claiming links the gateway to your Kadena account so that its rewards (in KDA) are paid to you. If you do not have a wallet yet, follow [Create a Kadena wallet](/support/getting-started/create-a-kadena-wallet) first.

1. On the setup page, open the **Claim** tab.
2. Enter your k: account and select **Create claim message**. The page shows a short message with the gateway's ID and a one-time code, valid for 10 minutes.
3. Select **Sign with wallet** to sign it with a browser wallet, or copy the message into your wallet's *sign message* function and paste the signature back into the page.
4. Select **Submit claim**.

Signing the claim message proves that you control the account; it is not a transaction and does not spend any KDA. See [Claiming a gateway](/support/wallet-and-rewards/claiming-a-gateway) for details.

**Checkpoint:** the status light stays **solid** throughout, and within about 5 minutes the **Claim** tab shows **Claimed by k:…** with your account.

## Check that it is online

Your ${model} is online and working when all of these are true:

1. The status light has been **solid** for at least 10 minutes.
2. The **Status** tab of the setup page shows **Network service: connected**, **Radio: running** with your region, and **Claim: claimed** with your k: account.
3. The **Last heartbeat** time on the **Status** tab is less than 5 minutes old and keeps updating when you reload the page.

Rewards are not immediate: [How rewards work](/support/wallet-and-rewards/how-rewards-work) explains when you can expect the first KDA.

## Troubleshooting

TODO: add the problems owners of this model run into, one heading per symptom.

### The LED stays off

1. Check that the power supply is plugged in at both ends and that the wall socket works.
2. Try the original power supply, or one with exactly the same rating and connector.
3. If the light stayed off since flashing, repeat Step 1; an interrupted write leaves nothing to boot.

### The LED blinks fast and never turns solid

The gateway is running but cannot reach the Meshfront network service.

1. Ethernet: check that the cable's link lights on the port are on, and try another cable and another router port.
2. Wi-Fi: open the setup page (Steps 4 and 5) and check **Network → Wi-Fi**. Move the gateway closer to the router, or use Ethernet.
3. If this started after the unit had worked before, see [My gateway is offline](/support/troubleshooting/gateway-offline).

## Get help

If you are stuck, search the [support site](/support) or [contact us](/contact). To help us help you quickly, include:

- the model (**${model}**),
- what the status light is doing and for how long,
- which step of this guide you reached,
- the diagnostics file from the **Status** tab of the setup page, if you can open it (**Status → Download diagnostics**).

You can find what each light pattern means in [LED codes](/support/troubleshooting/led-codes).
`;
}

function main(argv: readonly string[]): void {
  const { slug, dir } = parseArgs(argv);
  const guidesDir = path.resolve(dir, 'guides');
  if (!fs.existsSync(guidesDir) || !fs.statSync(guidesDir).isDirectory())
    throw new Refusal(`there is no guides folder at ${guidesDir}: --dir must be a content directory`);
  const file = path.join(guidesDir, `${slug}.mdx`);
  const existing = [file, path.join(guidesDir, `${slug}.md`)].find((f) => fs.existsSync(f));
  if (existing)
    throw new Refusal(`${path.relative(process.cwd(), existing)} already exists; edit it, or choose another slug`);
  const vendor = vendorFromSlug(slug);
  const text = guideTemplate(slug, vendor, freeOrder(guidesDir, vendor), today());
  // 'wx': never overwrite, even if the file appeared since the check above.
  fs.writeFileSync(file, text, { flag: 'wx' });
  const shown = path.relative(process.cwd(), file);
  console.log(`Created ${shown}.
Next: replace every TODO (search the file for "TODO"), preview it with npm run dev at /guides/${slug},
then check it with: npx vitest run tests/content/guides.test.ts`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`content:new: ${error.message}\n\n${USAGE}`);
    process.exitCode = 1;
  } else if (error instanceof Refusal) {
    console.error(`content:new: ${error.message}`);
    process.exitCode = 1;
  } else if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
    console.error('content:new: the guide file already exists; edit it, or choose another slug');
    process.exitCode = 1;
  } else throw error;
}
