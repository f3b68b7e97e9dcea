#!/bin/sh
# The Discord Embedded App SDK as one static file of the web table (issue 34, DESIGN
# "The table inside Discord"): adapters/web/static/vendor/discord-sdk.js, an IIFE that
# sets window.DiscordEmbeddedAppSDK = {DiscordSDK, DiscordSDKMock}, and the licences of
# everything in it beside it. Run it to move to another SDK version (npm and Node.js
# needed; nothing of it is needed to run or test the bot: the output is committed).
set -eu
SDK_VERSION=${SDK_VERSION:-2.5.0}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/adapters/web/static/vendor"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
npm init -y >/dev/null
npm i --no-audit --no-fund --loglevel=error "@discord/embedded-app-sdk@$SDK_VERSION" esbuild@0.25
printf '%s\n' 'import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";' \
  'window.DiscordEmbeddedAppSDK = { DiscordSDK: DiscordSDK, DiscordSDKMock: DiscordSDKMock };' > entry.js
./node_modules/.bin/esbuild entry.js --bundle --format=iife --minify --target=es2019 \
  --legal-comments=none --outfile="$OUT/discord-sdk.js"
cd node_modules
{
  echo "Third-party code in discord-sdk.js (bundled by tools/vendor_discord_sdk.sh from npm):"
  echo
  for d in @discord/embedded-app-sdk zod eventemitter3 big-integer decimal.js-light uuid lodash.transform; do
    echo "==== $d $(node -p "require('./$d/package.json').version") ===="
    cat "$d"/LICEN[CS]E*
    echo
  done
} > "$OUT/discord-sdk.LICENSES.txt"
