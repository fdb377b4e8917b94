#!/bin/sh
# A test plugin that speaks the protocol in plain sh. How it behaves is chosen by its first argument:
#   good       answers every page with one line: "page N of process PID, K file(s) beside the image"
#   exit       writes to stderr and exits with status 3 before the handshake
#   hang       greets, then never answers a page
#   garbage    greets, then answers a page with a Python traceback
#   malformed  greets, then answers with a word box outside the page
#   crash      answers pages 1 and 2, then dies of SIGSEGV on page 3
#   slow       greets, then takes 3 seconds per page
#   oldprotocol  greets with protocol 99
mode=$1
pages=0
while IFS= read -r line; do
    case "$line" in
    *'"type":"hello"'*)
        if [ "$mode" = exit ]; then echo "cannot load model: file not found" >&2; exit 3; fi
        if [ "$mode" = oldprotocol ]; then echo '{"type":"hello","protocol":99}'; continue; fi
        echo '{"type":"hello","protocol":1}'
        ;;
    *'"type":"recognize"'*)
        pages=$((pages + 1))
        id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
        path=$(printf '%s' "$line" | sed -n 's/.*"path":"\([^"]*\)".*/\1/p' | sed 's#\\/#/#g')
        case "$mode" in
        hang) exec sleep 1000 ;;
        garbage)
            echo 'Traceback (most recent call last):'
            echo '  File "plugin.py", line 3, in <module>'
            ;;
        malformed)
            echo "{\"type\":\"result\",\"id\":$id,\"page\":{\"lines\":[{\"text\":\"far\",\"words\":[{\"text\":\"far\",\"box\":[5000,5,40,10]}]}]}}"
            ;;
        crash)
            if [ $pages -eq 3 ]; then echo "segmentation fault in page 3" >&2; kill -SEGV $$; fi
            ;;
        slow) sleep 3 ;;
        esac
        files=$(ls "$(dirname "$path")" | wc -l | tr -d ' ')
        echo "{\"type\":\"progress\",\"id\":$id,\"fraction\":0.5}"
        echo "{\"type\":\"result\",\"id\":$id,\"page\":{\"lines\":[{\"text\":\"page $pages of process $$, $files file(s) beside the image\",\"confidence\":0.75,\"box\":{\"x\":2,\"y\":3,\"width\":40,\"height\":10},\"words\":[{\"text\":\"page\",\"confidence\":0.75,\"box\":[2,3,12,10]}]}]}}"
        ;;
    esac
done
