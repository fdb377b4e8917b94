import CTesseract
import DocScanGeometry
import DocScanRecognition
import Foundation

/// A Tesseract configuration with its models loaded; reads pages with engines from the shared pool.
struct TesseractSession: RecognitionSession {
    let level: RecognitionLevel
    let key: HandleKey
    let pool: HandlePool

    func recognize(_ page: PageImage, request: RecognitionRequest) async throws(RecognitionError) -> RecognizedPage {
        try request.validate()
        let started = ContinuousClock.now
        let monitor = EngineMonitor(deadline: request.timeLimit.map { started + $0 }, progress: request.progressHandler)
        let borrowed = await pool.take(key)
        let (level, key) = (self.level, self.key)
        let outcome: (Result<RecognizedPage, RecognitionError>, TesseractHandle?) = await withTaskCancellationHandler {
            await onEngineThread {
                let handle: TesseractHandle
                if let borrowed {
                    handle = borrowed
                } else {
                    do throws(RecognitionError) { handle = try TesseractHandle(key: key) } catch {
                        return (.failure(error), nil)
                    }
                }
                let reader = PageReader(handle: handle, monitor: monitor, level: level, request: request)
                do throws(RecognitionError) {
                    return (.success(try reader.read(page)), handle)
                } catch {
                    return (.failure(error), handle)
                }
            }
        } onCancel: {
            monitor.cancel()
        }
        if let handle = outcome.1 { await pool.give(handle) }
        var result = try outcome.0.get()
        result.provenance.timingsMilliseconds["total"] = (ContinuousClock.now - started).milliseconds
        monitor.span = 0...1  // the whole page, whichever run came last
        monitor.report(1)
        return result
    }
}

/// Reads one page with one engine, on the engine's thread: plans the scale, runs Tesseract, extracts the result model
/// and applies the level's extra passes.
struct PageReader {
    let handle: TesseractHandle
    let monitor: EngineMonitor
    let level: RecognitionLevel
    let request: RecognitionRequest
    var api: OpaquePointer { handle.api }

    /// The character height (pixels) each level reads at; lines the LSTM sees are normalised to 36-48 pixels.
    static let fastGlyphHeight = 20.0
    static let accurateGlyphHeightCap = 48.0
    /// Print under this height (pixels) is too small for `fast` to read as it is: a card or a receipt that filled a
    /// small part of a photo. `fast` reads such a page enlarged (at most ``maximumEnlargement`` times) so that its
    /// characters are about ``fastSmallPrintHeight`` pixels tall. Over fifteen generated sets and the corpus, enlarging
    /// cut the errors of pages of 3-6 px print by a fifth for two thirds more of their time, those of 7-9 px print by a
    /// twentieth for 42% more.
    static let fastSmallPrintThreshold = 7.0
    static let fastSmallPrintHeight = 16.0
    static let maximumEnlargement = 3.0
    /// The smallest the shortest wanted text may become when the minimum text height lets the page shrink.
    static let minimumTextPixels = 16.0
    /// Lines below this confidence get a second look at `accurate`.
    static let secondLookThreshold = 0.75

    func read(_ page: PageImage) throws(RecognitionError) -> RecognizedPage {
        let started = ContinuousClock.now
        let gray = GrayPixels(page)
        let glyphs = gray.glyphs()
        let minimumPixels = request.minimumTextHeight * Double(page.height)
        var scale = 1.0
        var mapping: [String] = []
        if minimumPixels > 0 {
            scale = min(1, Self.minimumTextPixels / minimumPixels)
            mapping.append("text under \(Int(minimumPixels.rounded())) px skipped")
        } else if let glyphHeight = glyphs?.typicalHeight {
            scale = Self.withinPixelBudget(
                Self.scale(forGlyphHeight: glyphHeight, level: level), width: page.width, height: page.height)
        }
        let prepared = (ContinuousClock.now - started).milliseconds
        var result = try read(page, gray: gray, glyphs: glyphs, scale: scale, mapping: mapping)
        result.provenance.timingsMilliseconds["prepare", default: 0] += prepared
        if monitor.stopped == nil,
            let factor = Self.worthwhileEnlargement(
                Self.enlargementWhenNothingRead(
                    result.blocks, glyphHeight: glyphs?.typicalHeight, scale: scale, level: level),
                width: page.width, height: page.height)
        {
            // Print a little over the small print threshold can read as nothing at all under the fast model (a dark
            // card's 8 px light print): the page is read again enlarged like smaller print, and kept if it reads as
            // more than noise. (Not when the engine was stopped: a reading cut short by its time budget found nothing
            // because it was stopped.)
            let enlarged = try read(page, gray: gray, glyphs: glyphs, scale: factor, mapping: mapping)
            if Self.lettersAndDigits(enlarged.blocks.flatMap(\.lines).flatMap(\.words)) > 0,
                !Self.isMostlyNoise(enlarged.blocks)
            {
                var kept = enlarged
                kept.provenance.levelMapping += "; read enlarged after the page as it is read as nothing"
                for (stage, milliseconds) in result.provenance.timingsMilliseconds {
                    kept.provenance.timingsMilliseconds[stage, default: 0] += milliseconds
                }
                return kept
            }
            return result
        }
        guard scale > 1, Self.isMostlyNoise(result.blocks) else { return result }
        // The specks of a texture (a dark card's weave) can pass for small print; enlarged, they read as lines of
        // noise. The page is then read as it is too, and the reading with more believable text kept.
        let asItIs = try read(page, gray: gray, glyphs: glyphs, scale: 1, mapping: mapping)
        guard Self.evidence(asItIs.blocks) > Self.evidence(result.blocks) else { return result }
        var kept = asItIs
        kept.provenance.levelMapping += "; kept the page as it is over the enlarged page's noise"
        for (stage, milliseconds) in result.provenance.timingsMilliseconds {
            kept.provenance.timingsMilliseconds[stage, default: 0] += milliseconds
        }
        return kept
    }

    /// Reads `page` (whose gray pixels are `gray` and letter-like marks `glyphs`) at `scale`, after the notes in
    /// `mapping` on what the request changed.
    func read(
        _ page: PageImage, gray: GrayPixels, glyphs: (typicalHeight: Double, count: Int, centres: [Point])?, scale: Double,
        mapping: [String]
    ) throws(RecognitionError) -> RecognizedPage {
        var timings: [String: Double] = [:]
        var clock = ContinuousClock.now
        func lap(_ name: String) {
            let now = ContinuousClock.now
            timings[name, default: 0] += (now - clock).milliseconds
            clock = now
        }
        let glyphHeight = glyphs?.typicalHeight
        let minimumPixels = request.minimumTextHeight * Double(page.height)
        var mapping = mapping
        // The kept reading with the sure words of the page's other readings where it read nothing or noise.
        func filled(_ kept: [RecognizedBlock], from others: [[RecognizedBlock]]) -> [RecognizedBlock] {
            let fill = WordFill.filling(kept, from: others)
            if fill.filled > 0 { mapping.append("\(fill.filled) words filled in from its other readings") }
            return fill.blocks
        }
        let pixels = gray.scaled(by: scale)
        // The page's checkboxes, found while Tesseract reads it (for the page as it is: turned, it is searched again).
        let checkBoxSearch = glyphHeight.map { glyphHeight in
            BackgroundWork { CheckBoxes.find(in: pixels, glyphHeight: glyphHeight * scale) }
        }
        mapping.insert(
            level == .fast
                ? "fast LSTM, page at \(Int((scale * 100).rounded()))% (characters ~\(Int(((glyphHeight ?? 0) * scale).rounded())) px), no dictionary, orientation check"
                : "LSTM, page at \(Int((scale * 100).rounded()))%, \(handle.key.usesDictionary ? "dictionary" : "no dictionary")"
                    + (handle.key.customWords.isEmpty ? "" : " and custom words")
                    + ", orientation check, second look at lines under \(Int(Self.secondLookThreshold * 100))% confidence",
            at: 0)
        // The resolution Tesseract is told: the true one when known, else one that makes the typical characters
        // about 10 pt (a wrong resolution costs accuracy; none at all makes Tesseract guess from the text).
        let resolution: Double? =
            page.resolution.map { $0 * scale }
            ?? glyphHeight.map { min(600, max(70, $0 * scale / (0.6 * 10 / 72))) }
        lap("prepare")

        let roi = request.pixelRegion(width: page.width, height: page.height)
        let scaledROI = Self.scaled(roi, by: scale)
        let wantsChoices = request.maximumCandidates > 1 || !request.customWords.isEmpty
        let region = request.regionOfInterest == nil ? nil : scaledROI
        // A poor first reading, or one read sideways, is read again turned, and under `accurate` several times more.
        monitor.span = 0...(level == .accurate ? 0.3 : 0.6)
        var blocks = try run(pixels, resolution: resolution, region: region, mode: PSM_AUTO, choices: wantsChoices)
        lap("recognize")

        // The page as read, upright. Orientation comes first, so that `accurate`'s extra readings and second look
        // see upright lines.
        var upright = (pixels: pixels, region: region, turns: 0)
        if request.detectsOrientation
            && (Self.isPoor(blocks, marksOnPage: glyphs?.count ?? 0) || Self.readsSideways(blocks))
        {
            // Trials read the page with characters about 16 pixels tall (small print enlarged up to 3 times),
            // enough to tell sense from nonsense; a page that is still large is cut to its middle third. A turn
            // must read clearly better to win, or, where Tesseract read the lines standing, lie across as surely
            // (``turnedReadingLiesAcross(_:whereKeptStands:)``); the winner is read again in full.
            let trialScale = Self.withinPixelBudget(
                glyphHeight.map { min(3, 16 / ($0 * scale)) } ?? 1, width: pixels.width, height: pixels.height)
            let whole = pixels.scaled(by: trialScale)
            let isCut = Double(whole.width * whole.height) > Self.trialPixels
            let firstTrial =
                isCut ? whole.cropped(x: 0, y: whole.height / 3, width: whole.width, height: whole.height / 3) : whole
            // The quarter turns (0 when none) that make `image`, the page at `factor`, read clearly better.
            func bestTurn(of image: GrayPixels, factor: Double) throws(RecognitionError) -> Int {
                let first = try run(
                    image, resolution: resolution.map { $0 * factor }, region: nil, mode: PSM_AUTO, choices: false)
                var best = (turns: 0, blocks: first)
                for quarterTurns in Self.turnsToTry(blocks) {
                    try monitor.check()
                    let turned = image.rotated(quarterTurns: quarterTurns)
                    let other = try run(
                        turned, resolution: resolution.map { $0 * factor }, region: nil, mode: PSM_AUTO, choices: false)
                    if Self.turnedReadingWins(other, over: best.blocks)
                        || (best.turns == 0 && Self.turnedReadingLiesAcross(other, whereKeptStands: best.blocks))
                    {
                        best = (quarterTurns, other)
                    }
                }
                return best.turns
            }
            var turns = try bestTurn(of: firstTrial, factor: trialScale)
            if turns == 0 && isCut && level == .accurate {
                // The middle third can hold nothing legible either way (a form's faint field labels) while the rest
                // of the page says which way is up (its title): under `accurate`, an undecided trial is made again on
                // the whole page, at most ``wholePageTrialPixels`` large.
                let factor = min(
                    trialScale, (Self.wholePageTrialPixels / (Double(pixels.width) * Double(pixels.height))).squareRoot())
                turns = try bestTurn(of: factor == trialScale ? whole : pixels.scaled(by: factor), factor: factor)
            }
            if turns != 0 {
                upright.pixels = pixels.rotated(quarterTurns: turns)
                upright.region = region.map {
                    $0.turned(quarterTurns: turns, inWidth: Double(pixels.width), height: Double(pixels.height))
                }
                upright.turns = turns
                if level == .fast { monitor.span = 0.6...1 }
                blocks = try run(upright.pixels, resolution: resolution, region: upright.region, mode: PSM_AUTO, choices: wantsChoices)
            }
            lap("orientation")
        }
        // The page's letter-like marks in the pixels of the upright page, those in the region read only.
        let placed = Self.placed(glyphs?.centres ?? [], scaledBy: scale, turns: upright.turns, in: pixels)
        let marks = placed.filter { mark in
            guard let region = upright.region else { return true }
            return mark.x >= region.minX && mark.x <= region.maxX && mark.y >= region.minY && mark.y <= region.maxY
        }
        if level == .fast,
            Self.isSlip(width: upright.pixels.width, height: upright.pixels.height)
                || Self.missesPrint(blocks, marksOnPage: marks.count)
                || Self.readShare(of: marks, by: blocks, glyphHeight: (glyphHeight ?? 0) * scale) < Self.fullyReadShare
        {
            // A till receipt's lines (an item on the left, its price on the right) in often faint print are one block,
            // which Tesseract's layout analysis can split into columns and lose lines of; now and then it loses most
            // lines of other pages too (under three quarters of the page's marks on lines it read, or few letters
            // for them).
            // Such a page is read again as one block with the faint print darkened, and the reading with more
            // evidence kept, filled with the other's sure words where it read nothing or noise (``WordFill``). A
            // form's drawn lines are erased first (``DrawnLineEraser``): read as one block, a field's box runs
            // through the text it holds.
            monitor.span = monitor.span.upperBound...1
            let first = Self.withoutEdgeNoise(blocks)
            let blockPixels =
                glyphHeight.flatMap { DrawnLineEraser(glyphHeight: $0 * scale).erasing(in: upright.pixels) }
                ?? upright.pixels
            let firstRunTime = Duration.milliseconds(timings["recognize", default: 0])
            let asOneBlock = try monitor.within(Self.fastAlternativeBudget(firstRun: firstRunTime)) {
                () throws(RecognitionError) in
                Self.withoutEdgeNoise(
                    try run(blockPixels.withFaintPrintDarkened(), resolution: resolution, region: upright.region,
                            mode: PSM_SINGLE_BLOCK, choices: wantsChoices))
            }
            if let asOneBlock, Self.readsBetter(asOneBlock, than: first) {
                blocks = filled(asOneBlock, from: [first])
                mapping.append("kept the reading with faint print darkened, as one block")
            } else if let asOneBlock {
                blocks = filled(blocks, from: [asOneBlock])
            } else {
                mapping.append("gave up reading it as one block (over its time budget)")
            }
            lap("alternatives")
        }
        if level == .accurate {
            let chosen = try bestReading(
                blocks, pixels: upright.pixels, glyphHeight: glyphHeight.map { $0 * scale },
                marks: marks, resolution: resolution, region: upright.region, choices: wantsChoices)
            blocks = chosen.blocks
            if let rendering = chosen.rendering { mapping.append("kept the reading \(rendering)") }
            lap("alternatives")
            let boxed = try withTextInDrawnBoxes(
                blocks, pixels: upright.pixels, glyphHeight: glyphHeight.map { $0 * scale }, resolution: resolution,
                region: upright.region, choices: wantsChoices)
            if boxed.flatMap(\.lines).count > blocks.flatMap(\.lines).count {
                mapping.append("text in drawn boxes read with the lines erased")
            }
            blocks = boxed
            lap("drawn_boxes")
            monitor.span = 0.85...1
            blocks = withMisreadRulesReplaced(
                blocks, pixels: upright.pixels, glyphHeight: glyphHeight.map { $0 * scale }, region: upright.region)
            blocks = Self.withoutEdgeNoise(
                try secondLook(blocks, pixels: upright.pixels, resolution: resolution, choices: wantsChoices))
            lap("second_look")
            // Last, what the kept reading still read as nothing or noise, from the others' sure words: after the
            // drawn boxes' lines, which the fill would otherwise take a word of and so keep out, and after the
            // second look, so that the words filled in stay marked as such (``RecognizedPage/asRead``).
            blocks = filled(blocks, from: chosen.others)
        }
        blocks = withRules(blocks, pixels: upright.pixels, glyphHeight: glyphHeight.map { $0 * scale }, region: upright.region)
        // Words that are no text: read in a form's checkboxes, or stretched over a signature or a drawn line's edge.
        func keep(_ kept: [RecognizedBlock], saying what: String) {
            let left = Self.wordCount(blocks) - Self.wordCount(kept)
            if left > 0 { mapping.append("left out \(left) \(left == 1 ? "word" : "words") \(what)") }
            blocks = kept
        }
        if let glyphHeight, let checkBoxSearch {
            let checkBoxes =
                upright.turns == 0
                ? checkBoxSearch.value : CheckBoxes.find(in: upright.pixels, glyphHeight: glyphHeight * scale)
            let outside = Self.keepingWords(of: blocks) { CheckBoxes.wordsOutside(checkBoxes, on: $0) }
            keep(outside, saying: "read in checkboxes")
            lap("checkboxes")
        }
        keep(Self.withoutStretchedWords(blocks), saying: "stretched past any print's shape")
        blocks = BlockOrder.pairingRows(
            BlockOrder.arranged(Self.withoutHairlineQuotes(Self.withoutEdgeBars(blocks, width: upright.pixels.width))))
        if Self.isSlip(width: upright.pixels.width, height: upright.pixels.height) { blocks = BlockOrder.rowByRow(blocks) }
        if upright.turns != 0 {
            blocks = Self.unrotate(blocks, quarterTurns: upright.turns, width: upright.pixels.width, height: upright.pixels.height)
        }
        // Back to page pixels, then the request's filters and corrections.
        blocks = Self.scaleBoxes(blocks, by: 1 / scale)
        if minimumPixels > 0 {
            blocks = blocks.map { block in
                var block = block
                block.lines.removeAll { $0.box.height < minimumPixels }
                return block
            }.filter { !$0.lines.isEmpty }
        }
        if !request.customWords.isEmpty {
            blocks = CustomWords(request.customWords).correct(blocks)
        }
        if handle.key.usesDictionary && SentencePunctuation.applies(to: handle.key.languages) {
            let pronouns = PronounI.corrected(blocks)
            blocks = pronouns.blocks
            if pronouns.count > 0 {
                mapping.append("\(pronouns.count) bar\(pronouns.count == 1 ? "" : "s") opening a line read as \"I\"")
            }
            let punctuated = SentencePunctuation.corrected(blocks)
            blocks = punctuated.blocks
            if punctuated.count == 1 { mapping.append("1 full stop read as a comma put back") }
            if punctuated.count > 1 { mapping.append("\(punctuated.count) full stops read as commas put back") }
            let amounts = DecimalPoints.corrected(blocks)
            blocks = amounts.blocks
            if amounts.count > 0 {
                mapping.append("\(amounts.count) decimal point\(amounts.count == 1 ? "" : "s") read as a comma put back")
            }
        }
        if request.maximumCandidates > 1 {
            blocks = blocks.map { block in
                var block = block
                for l in block.lines.indices {
                    block.lines[l].candidates = LineCandidates.best(block.lines[l], count: request.maximumCandidates)
                }
                return block
            }
        }
        if wantsChoices && request.maximumCandidates <= 1 {
            // Glyph alternatives were only gathered to build candidates or match custom words.
            blocks = blocks.map { block in
                var block = block
                for l in block.lines.indices {
                    for w in block.lines[l].words.indices {
                        for g in block.lines[l].words[w].glyphs.indices { block.lines[l].words[w].glyphs[g].alternatives = [] }
                    }
                }
                return block
            }
        }
        lap("extract")
        let provenance = RecognitionProvenance(
            recognizer: "", backend: "Tesseract", version: TesseractRecognizer.version, models: handle.models,
            level: level, levelMapping: mapping.joined(separator: "; "), orientationQuarterTurns: upright.turns,
            resolution: resolution.map { ($0 / scale).rounded() }, timingsMilliseconds: timings)
        return RecognizedPage(width: page.width, height: page.height, blocks: blocks, provenance: provenance)
    }

    /// The factor a `fast` reading at `scale` that found no letter or digit is read again at: print under the level's
    /// character height (``fastGlyphHeight``) that was read as it is, enlarged to ``fastSmallPrintHeight`` or by half,
    /// whichever is more (at most ``maximumEnlargement``); nil when there is no such second reading to try.
    static func enlargementWhenNothingRead(
        _ blocks: [RecognizedBlock], glyphHeight: Double?, scale: Double, level: RecognitionLevel
    ) -> Double? {
        guard level == .fast, scale == 1, let glyphHeight, glyphHeight > 0, glyphHeight < fastGlyphHeight,
            lettersAndDigits(blocks.flatMap(\.lines).flatMap(\.words)) == 0
        else { return nil }
        return min(maximumEnlargement, max(1.5, fastSmallPrintHeight / glyphHeight))
    }

    /// The scale a page whose characters are `glyphHeight` pixels tall is read at: large print shrunk to the level's
    /// character height, and under `fast` small print (under ``fastSmallPrintThreshold``) enlarged to
    /// ``fastSmallPrintHeight``. `accurate` reads small print as it is first, and enlarged as one of its other readings
    /// (see ``bestReading(_:pixels:glyphHeight:marks:resolution:region:choices:)``).
    static func scale(forGlyphHeight glyphHeight: Double, level: RecognitionLevel) -> Double {
        switch level {
        case .fast where glyphHeight < fastSmallPrintThreshold:
            min(maximumEnlargement, fastSmallPrintHeight / glyphHeight)
        case .fast:
            min(1, fastGlyphHeight / glyphHeight)
        case .accurate:
            min(1, accurateGlyphHeightCap / glyphHeight)
        }
    }

    /// One Tesseract run over `pixels`; boxes come back in their coordinates.
    func run(_ pixels: GrayPixels, resolution: Double?, region: Rect?, mode: TessPageSegMode, choices: Bool)
        throws(RecognitionError) -> [RecognizedBlock]
    {
        try monitor.check()
        handle.set("tessedit_char_whitelist", request.allowedCharacters ?? "")
        handle.set("lstm_choice_mode", choices ? "2" : "0")
        TessBaseAPISetPageSegMode(api, mode)
        pixels.bytes.withUnsafeBufferPointer { buffer in
            TessBaseAPISetImage(api, buffer.baseAddress, Int32(pixels.width), Int32(pixels.height), 1, Int32(pixels.width))
        }
        defer { TessBaseAPIClear(api) }
        if let resolution { TessBaseAPISetSourceResolution(api, Int32(resolution.rounded())) }
        if let region {
            let left = max(0, Int(region.minX.rounded(.down))), top = max(0, Int(region.minY.rounded(.down)))
            let right = min(pixels.width, Int(region.maxX.rounded(.up))), bottom = min(pixels.height, Int(region.maxY.rounded(.up)))
            guard right > left, bottom > top else { return [] }
            TessBaseAPISetRectangle(api, Int32(left), Int32(top), Int32(right - left), Int32(bottom - top))
        }
        let status = TessBaseAPIRecognize(api, monitor.monitor)
        try monitor.check()
        if monitor.stopped == .budget { return [] }  // abandoned: see ``EngineMonitor/within(_:_:)``
        guard status == 0 else { throw .engineFailure("Tesseract could not read the page (status \(status))") }
        return ResultExtractor(api: api, choices: choices).blocks()
    }

    /// `blocks`, read on upright `pixels`, with the rows of dashes and equals signs that Tesseract's layout analysis
    /// removed put back as lines (see ``RuleLineReader``), unless the request's allowed characters exclude them.
    func withRules(_ blocks: [RecognizedBlock], pixels: GrayPixels, glyphHeight: Double?, region: Rect?)
        -> [RecognizedBlock]
    {
        guard let glyphHeight else { return blocks }
        let blocks = withMisreadRulesReplaced(blocks, pixels: pixels, glyphHeight: glyphHeight, region: region)
        let rules = RuleLineReader(pixels: pixels, glyphHeight: glyphHeight)
            .rules(avoiding: blocks.flatMap(\.lines), in: region).filter { isAllowed($0.character) }
        return rules.isEmpty ? blocks : RuleLineReader.adding(rules, to: blocks)
    }

    /// `blocks` with each line Tesseract misread over a printed rule replaced by the rule
    /// (``RuleLineReader/replacingMisreadRules(_:reader:region:allowed:)``). Done before the second look too, which
    /// would otherwise read such a line's nonsense again as a single line, a little more surely, and keep it: seed
    /// 163000 receipt-01's row of equals signs became "BSSSS SSSS S23 SSS SSS3".
    func withMisreadRulesReplaced(_ blocks: [RecognizedBlock], pixels: GrayPixels, glyphHeight: Double?, region: Rect?)
        -> [RecognizedBlock]
    {
        guard let glyphHeight else { return blocks }
        let reader = RuleLineReader(pixels: pixels, glyphHeight: glyphHeight)
        return RuleLineReader.replacingMisreadRules(blocks, reader: reader, region: region, allowed: isAllowed)
    }

    /// Whether the request's allowed characters (all when it sets none) include `character`.
    func isAllowed(_ character: Character) -> Bool {
        request.allowedCharacters.map { $0.contains(character) } ?? true
    }

    /// The time `fast` gives its reading of a page as one block: twice its first reading's time, and at least
    /// ``fastAlternativeMinimumBudget``. Read as one block with faint print darkened, a page of dense noise (a checked
    /// cloth that a detection miss took in, seed 39000 form-02) took 4.6 s against 1.0 s for the first reading, and
    /// again for its refocused rendering, a tenth of that set's `fast` time. The
    /// set's 23 other one-block readings took under a second each (up to 9 times a first reading that had found
    /// little print), the 7 that won among them too.
    static func fastAlternativeBudget(firstRun: Duration) -> Duration {
        max(fastAlternativeMinimumBudget, firstRun * 2)
    }
    /// The least time `fast` gives a one-block reading, however quick the first reading was.
    static let fastAlternativeMinimumBudget = Duration.seconds(2)

    /// Whether a page of `width` × `height` has a till receipt's shape: its short side under 0.45 of its long side.
    static func isSlip(width: Int, height: Int) -> Bool {
        Double(min(width, height)) < 0.45 * Double(max(width, height))
    }

    /// The character height (pixels) small print is enlarged to for `accurate`'s extra reading.
    static let enlargedGlyphHeight = 24.0

    /// The most pixels an enlarged reading of a page may hold (12 MP, an A4 page at about 350 dpi). Enlarging small
    /// print three times multiplies the pixels Tesseract reads by nine: on a page that is already large (an outline
    /// that took in a stretch of wood grain, whose specks pass for 5 px print, cut from a 12 MP photo at 3015 × 3186)
    /// that made 86 MP readings, two of them, for 80 s and 500 MB, to keep none of them.
    static let maximumEnlargedPixels = 12_000_000.0

    /// The largest an orientation trial's page may be (pixels); a larger one is cut to its middle third.
    static let trialPixels = 1_200_000.0

    /// The largest an orientation trial on a whole page may be (pixels), when `accurate`'s trial on its middle third
    /// turned out undecided.
    static let wholePageTrialPixels = 4_000_000.0

    /// An extra reading enlarged by less than this (held down by ``maximumEnlargedPixels``) is not worth its time.
    static let leastWorthwhileEnlargement = 1.25

    /// `factor` lowered so that a page of `width` × `height` pixels enlarged by it holds at most
    /// ``maximumEnlargedPixels``; never below 1 (a large page is not shrunk for this), and a factor of 1 or less is
    /// returned as it is.
    static func withinPixelBudget(_ factor: Double, width: Int, height: Int) -> Double {
        guard factor > 1, width > 0, height > 0 else { return factor }
        return max(1, min(factor, (maximumEnlargedPixels / (Double(width) * Double(height))).squareRoot()))
    }

    /// The enlargement `wanted` for an extra reading of a page of `width` × `height` pixels, held within
    /// ``maximumEnlargedPixels`` (``withinPixelBudget(_:width:height:)``); nil when none is wanted or what is left is
    /// under ``leastWorthwhileEnlargement``.
    static func worthwhileEnlargement(_ wanted: Double?, width: Int, height: Int) -> Double? {
        guard let wanted else { return nil }
        let factor = withinPixelBudget(wanted, width: width, height: height)
        return factor >= leastWorthwhileEnlargement ? factor : nil
    }

    /// The factor (at most 3) that enlarges characters `glyphHeight` pixels tall to about ``enlargedGlyphHeight``, or
    /// nil when they are not small (over seven tenths of it) or their height is unknown.
    static func enlargement(forGlyphHeight glyphHeight: Double?) -> Double? {
        guard let glyphHeight, glyphHeight > 0, glyphHeight < enlargedGlyphHeight * 0.7 else { return nil }
        return min(maximumEnlargement, enlargedGlyphHeight / glyphHeight)
    }

    /// Unless the first reading is settled and holds ``fullyReadShare`` of the page's marks, `accurate` reads the page
    /// more ways and keeps the reading with the most
    /// ``evidence(_:)``: as one block of text (which survives forms and receipts whose layout analysis loses lines),
    /// the same with faint print darkened, where the characters are small enlarged so that they are about
    /// ``enlargedGlyphHeight`` pixels tall (as laid out, and as one darkened block), and as laid out with its ink
    /// evened out (``GrayPixels/withInkEvenedOut(reach:leastContrast:)``: the faint lines of a receipt beside its bold
    /// heading, which Tesseract's one threshold for the page turns to paper, become as dark as the heading), and as laid
    /// out with the paper's grain whitened (``GrayPixels/withPaperGrainWhitened()``: gray speckled paper that the
    /// threshold turns to dots, which layout analysis takes for a picture and drops the print on). Another
    /// reading must read better (``readsBetter(_:than:)``), and must not leave out print the kept one read (evidence
    /// does not count text left unread: see ``losesPrint(_:than:marks:glyphHeight:)``). A till receipt is read the
    /// other ways even when its first reading is settled: its bold heading, total and barcode can be all that
    /// Tesseract's binarization keeps of it, read with certainty, while its faint item lines fall on the paper's side
    /// of the threshold. `marks` are the centres of the page's letter-like marks in `pixels` coordinates. Returns the
    /// blocks in `pixels` coordinates, which rendering won when it was not the first reading, and the readings not
    /// kept, for ``WordFill`` to fill the kept one from.
    func bestReading(
        _ first: [RecognizedBlock], pixels: GrayPixels, glyphHeight: Double?, marks: [Point], resolution: Double?,
        region: Rect?, choices: Bool
    ) throws(RecognitionError) -> (blocks: [RecognizedBlock], rendering: String?, others: [[RecognizedBlock]]) {
        let first = Self.withoutEdgeNoise(first)
        guard
            Self.readsOtherWays(
                first, width: pixels.width, height: pixels.height,
                shareOfMarksRead: Self.readShare(of: marks, by: first, glyphHeight: glyphHeight ?? 0))
        else { return (first, nil, []) }
        var renderings: [(name: String, factor: Double, ink: InkTreatment, mode: TessPageSegMode)] = [
            ("as one block of text", 1, .asItIs, PSM_SINGLE_BLOCK),
            ("with faint print darkened, as one block", 1, .faintPrintDarkened, PSM_SINGLE_BLOCK),
        ]
        if let factor = Self.worthwhileEnlargement(
            Self.enlargement(forGlyphHeight: glyphHeight), width: pixels.width, height: pixels.height)
        {
            let percent = Int((factor * 100).rounded())
            renderings += [
                ("enlarged to \(percent)%", factor, .asItIs, PSM_AUTO),
                ("enlarged to \(percent)% with faint print darkened, as one block", factor, .faintPrintDarkened, PSM_SINGLE_BLOCK),
            ]
        }
        if let glyphHeight, glyphHeight >= 1 {
            renderings.append(("with its ink evened out", 1, .evenedOut(reach: Int(glyphHeight.rounded())), PSM_AUTO))
        }
        renderings.append(("with the paper's grain whitened", 1, .paperGrainWhitened, PSM_AUTO))
        var best = (blocks: first, rendering: String?.none, index: 0)
        var readings = [first]
        for (n, rendering) in renderings.enumerated() {
            let share = 0.55 / Double(renderings.count)
            monitor.span = (0.3 + share * Double(n))...(0.3 + share * Double(n + 1))
            let factor = rendering.factor
            var input = pixels.scaled(by: factor)
            switch rendering.ink {
            case .asItIs: break
            case .faintPrintDarkened: input = input.withFaintPrintDarkened()
            case .evenedOut(let reach): input = input.withInkEvenedOut(reach: reach)
            case .paperGrainWhitened: input = input.withPaperGrainWhitened()
            }
            let scaledRegion = region.map { Self.scaled($0, by: factor) }
            let blocks = Self.withoutEdgeNoise(
                Self.scaleBoxes(
                    try run(input, resolution: resolution.map { $0 * factor }, region: scaledRegion, mode: rendering.mode, choices: choices),
                    by: 1 / factor))
            readings.append(blocks)
            if Self.readsBetter(blocks, than: best.blocks)
                && !Self.losesPrint(blocks, than: best.blocks, marks: marks, glyphHeight: glyphHeight ?? 0)
                || Self.readsMorePrint(blocks, than: best.blocks, marks: marks, glyphHeight: glyphHeight ?? 0)
            {
                best = (blocks, rendering.name, readings.count - 1)
            }
        }
        readings.remove(at: best.index)
        return (best.blocks, best.rendering, readings)
    }

    /// What one of `accurate`'s other readings does to the page's ink before it is read.
    enum InkTreatment {
        /// Nothing.
        case asItIs
        /// ``GrayPixels/withFaintPrintDarkened()``.
        case faintPrintDarkened
        /// ``GrayPixels/withInkEvenedOut(reach:leastContrast:)`` over `reach` pixels (a character's height).
        case evenedOut(reach: Int)
        /// ``GrayPixels/withPaperGrainWhitened()``.
        case paperGrainWhitened
    }

    /// `blocks` with the lines Tesseract missed inside drawn boxes (a form's fields) added. A page ruled with long
    /// drawn lines is read again with them erased (see ``DrawnLineEraser``), enlarged like small print; each line of
    /// that reading none of whose words lies on a line of the kept reading, with words Tesseract is not unsure of
    /// (``drawnBoxLineConfidence`` on average) and at least three letters or digits, joins the kept reading in its
    /// place.
    func withTextInDrawnBoxes(
        _ blocks: [RecognizedBlock], pixels: GrayPixels, glyphHeight: Double?, resolution: Double?, region: Rect?,
        choices: Bool
    ) throws(RecognitionError) -> [RecognizedBlock] {
        guard let glyphHeight, glyphHeight > 0, let erased = DrawnLineEraser(glyphHeight: glyphHeight).erasing(in: pixels)
        else { return blocks }
        let factor = Self.withinPixelBudget(
            Self.enlargement(forGlyphHeight: glyphHeight) ?? 1, width: pixels.width, height: pixels.height)
        let scaledRegion = region.map { Self.scaled($0, by: factor) }
        let again = Self.withoutEdgeNoise(
            Self.scaleBoxes(
                try run(erased.scaled(by: factor), resolution: resolution.map { $0 * factor }, region: scaledRegion,
                        mode: PSM_AUTO, choices: choices),
                by: 1 / factor))
        let kept = blocks.flatMap(\.lines)
        let missed = again.flatMap(\.lines).filter { line in
            line.words.allSatisfy { word in kept.allSatisfy { word.box.intersectionArea($0.box) < 0.3 * word.box.area } }
                && Self.meanWordConfidence(line.words) >= Self.drawnBoxLineConfidence
                && Self.lettersAndDigits(line.words) >= 3
        }
        return RecognizedBlock.inserting(missed, into: blocks)
    }

    /// The mean word confidence a line found only with a form's drawn lines erased needs to join the reading. Such a
    /// line is a field's value or label that the kept reading holds nothing of, and a field misread costs no more
    /// characters than a field left out: on the 90 forms of the corpus and 14 generated sets, 0.3 (and three letters
    /// or digits) instead of 0.6 (and two) read 11.14% CER instead of 11.49%, 8 forms better and none worse (seed 27000
    /// form-01 33.4% -> 21.9%: its instructions and its preferred-contact row, read at 0.38-0.57); 0.15 read 11.08% but
    /// two forms worse by 1.7 points.
    static let drawnBoxLineConfidence = 0.3

    /// The reading without the specks of noise Tesseract reads as short, unsure words at the ends of lines (the
    /// edge of a card, a texture, a thumb): words under 60% confidence with at most three letters and no digit (a
    /// misread price is still worth keeping) are dropped from either end of each line, and lines left empty go too.
    /// The pronoun "I" opening a line stays, however unsure (``PronounI``). Lines read down slivers go first
    /// (``withoutSlivers(_:)``).
    static func withoutEdgeNoise(_ blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        func isNoise(_ word: RecognizedWord) -> Bool {
            // (A word with no confidence is a printed rule put in its place, which Tesseract did not read.)
            guard let confidence = word.confidence?.value else { return false }
            return confidence < 0.6 && !word.text.contains(where: \.isNumber) && word.text.filter(\.isLetter).count <= 3
        }
        return withoutLineEnds(withoutSlivers(blocks)) { word, next in
            isNoise(word) && !PronounI.opensLine(word.text, before: next?.text)
        }
    }

    /// The reading without the lines Tesseract read down a sliver of the page: a line over ten times as tall as it is
    /// wide, its words unsure (under 0.5 on average), in a reading whose lines run across the page
    /// (``WordFill/linesRunDown(_:)``). Enlarged to 300%, seed 131000 form-03 (a 2 MP form turned 130 degrees, its
    /// page 606 × 858) read the page's left edge, 5 pixels wide, as one line 795 pixels tall of 200 characters of
    /// noise at 0.24, first in reading order; the reading still won on its clear fields, and the page read at 51% CER.
    /// A line of print across a page is far wider than tall, and a word standing on end (a spine's title, a receipt's
    /// prices read down rows) is a few times as tall as wide.
    static func withoutSlivers(_ blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        guard !WordFill.linesRunDown(blocks) else { return blocks }
        return blocks.compactMap { block in
            var block = block
            block.lines.removeAll { $0.box.height > 10 * $0.box.width && meanWordConfidence($0.words) < 0.5 }
            return block.lines.isEmpty ? nil : block
        }
    }

    /// The reading without the words stretched past the shape of any print: unsure words (under 0.6 confidence) with a
    /// letter whose boxes are at least 2.5 times as wide, per character, as they are tall. A signature's scribble is
    /// read as a few letters each as wide as a word ("LoL" over 249 × 22 pixels, "SIS" over 158 × 13), and a drawn
    /// line's edge as letters a pixel or two tall; a letter of print is at most about twice as wide as its word is tall
    /// ("m" alone, "mm"). On seeds 119000 and 121000 read under `accurate` (123 pages), the 14 words this drops were
    /// none of them in the truth: 8 read on signatures, the others on the edges of drawn lines and cards.
    static func withoutStretchedWords(_ blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        keepingWords(of: blocks) { line in
            line.words.filter { word in
                guard (word.confidence?.value ?? 0) < 0.6, word.text.contains(where: \.isLetter) else { return true }
                return word.box.width / Double(word.text.count) < 2.5 * word.box.height
            }
        }
    }

    /// The reading of a page `width` pixels wide without the bars Tesseract reads along its left and right edges,
    /// however sure: a word of nothing but vertical bars (`|`, `¦`, `‖`) at either end of a line, within a hundredth of
    /// the width (at least 2 pixels) of the page's side. The edge of a dark card read as one block put a `|` at 0.75 to
    /// 0.95 confidence before six of its nine lines (seed 57000 card-01). Bars inside the page (the sides of a form's
    /// boxes) are left to the readings' comparison, which they are part of.
    static func withoutEdgeBars(_ blocks: [RecognizedBlock], width: Int) -> [RecognizedBlock] {
        let margin = max(2, 0.01 * Double(width))
        return withoutLineEnds(blocks) { word, _ in
            !word.text.isEmpty && word.text.allSatisfy { "|¦‖".contains($0) }
                && (word.box.minX <= margin || word.box.maxX >= Double(width) - margin)
        }
    }

    /// The reading without the opening quote (`‘`) Tesseract reads before the first word of a line, most often a
    /// paragraph's indented first line, as a glyph under a third as wide as it is tall and at least half the line's
    /// height: a hairline, and no quotation mark (a quote is a small mark at the top of the line). On the pages of seeds
    /// 119000 and 121000, 46 of the 51 quotes read before a line's first word were such hairlines; no line of their
    /// truths opens with a quote. Before "The" and its like, they also kept a full stop read as a comma from being put
    /// back (``SentencePunctuation``).
    static func withoutHairlineQuotes(_ blocks: [RecognizedBlock]) -> [RecognizedBlock] {
        blocks.map { block in
            var block = block
            for l in block.lines.indices {
                let line = block.lines[l]
                guard var word = line.words.first, word.text.count > 1, word.text.first == "‘",
                    let quote = word.glyphs.first, quote.text == "‘",
                    quote.box.width <= 0.3 * quote.box.height, quote.box.height >= 0.5 * line.box.height
                else { continue }
                word.text.removeFirst()
                word.glyphs.removeFirst()
                word.box = Rect(enclosing: word.glyphs.map(\.box)) ?? word.box
                block.lines[l].words[0] = word
                block.lines[l].text = block.lines[l].wordsText
                block.lines[l].box = Rect(enclosing: block.lines[l].words.map(\.box)) ?? line.box
            }
            return block
        }
    }

    /// `blocks` with the words `isDropped` picks dropped from either end of each line (it is asked of the first or
    /// last word left, with the word after it on the line, nil for the last), each line's text and box made again
    /// from the words kept, and lines and blocks left empty dropped.
    private static func withoutLineEnds(
        _ blocks: [RecognizedBlock], where isDropped: (RecognizedWord, _ next: RecognizedWord?) -> Bool
    ) -> [RecognizedBlock] {
        keepingWords(of: blocks) { line in
            var words = line.words[...]
            while let first = words.first, isDropped(first, words.dropFirst().first) { words.removeFirst() }
            while let last = words.last, isDropped(last, nil) { words.removeLast() }
            return Array(words)
        }
    }

    /// How many words `blocks` hold.
    static func wordCount(_ blocks: [RecognizedBlock]) -> Int {
        blocks.reduce(0) { total, block in block.lines.reduce(total) { $0 + $1.words.count } }
    }

    /// `blocks` with each line's words replaced by those `kept` keeps of them (in order), the text and box of a line
    /// that lost words made again from those left, and lines and blocks left empty dropped.
    static func keepingWords(
        of blocks: [RecognizedBlock], _ kept: (RecognizedLine) -> [RecognizedWord]
    ) -> [RecognizedBlock] {
        blocks.compactMap { block in
            var block = block
            block.lines = block.lines.compactMap { line in
                var line = line
                let words = kept(line)
                guard words.count < line.words.count else { return line }
                line.words = words
                guard let box = Rect(enclosing: words.map(\.box)) else { return nil }
                line.text = line.wordsText
                line.box = box
                return line
            }
            return block.lines.isEmpty ? nil : block
        }
    }

    /// The share of a page's letter-like marks that a reading's lines must hold for it to have read the whole page
    /// (``readShare(of:by:glyphHeight:)``). Tesseract's layout analysis now and then drops whole paragraphs of a
    /// blurred page and reads the rest with certainty: seed 41000 prose-10 read half its page, every word sure, with
    /// 58% of its marks on the lines read.
    static let fullyReadShare = 0.75

    /// Whether `accurate` reads a page of `width` × `height` other ways after its `first` reading: unless that reading
    /// is settled and holds at least ``fullyReadShare`` of the page's marks (`shareOfMarksRead`), or always for a till
    /// receipt (see ``bestReading(_:pixels:glyphHeight:marks:resolution:region:choices:)``).
    static func readsOtherWays(_ first: [RecognizedBlock], width: Int, height: Int, shareOfMarksRead: Double) -> Bool {
        !isSettled(first) || isSlip(width: width, height: height) || shareOfMarksRead < fullyReadShare
    }

    /// Whether a reading leaves nothing to gain from reading again: many words, nearly all of them sure.
    static func isSettled(_ blocks: [RecognizedBlock]) -> Bool {
        RecognizedPage.isSettled(blocks.flatMap(\.lines).flatMap(\.words))
    }

    /// Whether a reading of 50 characters or more is mostly noise: under 3% of its characters in words Tesseract is
    /// sure of (0.7 or more). A dark card's weave, enlarged as if it were small print, read as 2,873 characters of
    /// which 44 (1.5%) were sure; blurred pages and receipts whose enlarged reading was still far better than the page
    /// read as it is had 4.4-9.6% of their characters sure.
    static func isMostlyNoise(_ blocks: [RecognizedBlock]) -> Bool {
        let words = blocks.flatMap(\.lines).flatMap(\.words)
        let characters = words.reduce(0) { $0 + $1.text.count }
        let sure = words.filter { ($0.confidence?.value ?? 0) >= 0.7 }.reduce(0) { $0 + $1.text.count }
        return characters >= 50 && Double(sure) < 0.03 * Double(characters)
    }

    /// How much believable text a reading holds (``RecognizedPage/legibility(of:)``): the letters and digits of words
    /// Tesseract is sure of (weighted by the square of their confidence), less a quarter of the characters of those
    /// it is unsure of (punctuation too), so that noise read as text (a texture, a thumb, the edge of the page) counts
    /// against a reading.
    static func evidence(_ blocks: [RecognizedBlock]) -> Double {
        RecognizedPage.legibility(of: blocks.flatMap(\.lines).flatMap(\.words)) ?? 0
    }

    /// The letters and digits of every word read, each weighted by the square of its confidence
    /// (``RecognizedPage/weightedText(of:)``): text that is there to be read, whether or not Tesseract is sure of it.
    static func weightedText(_ blocks: [RecognizedBlock]) -> Double {
        RecognizedPage.weightedText(of: blocks.flatMap(\.lines).flatMap(\.words))
    }

    /// Whether another reading of the same page should replace the kept one: it holds clearly more believable text
    /// (5% more ``evidence(_:)``), or a fifth more ``weightedText(_:)`` (two characters more) without being mostly
    /// noise (``isMostlyNoise(_:)``). The second catches a blurred page, or a small receipt, whose first reading found
    /// a line or two: read another way, its hundreds of words are mostly unsure and their penalty outweighs the sure
    /// ones, yet they hold the text, and a wrong word costs no more characters than a word not read at all. A dark
    /// card's weave, darkened, reads as hundreds of unsure characters too, but hardly a sure one.
    static func readsBetter(_ blocks: [RecognizedBlock], than kept: [RecognizedBlock]) -> Bool {
        let keptEvidence = evidence(kept)
        return evidence(blocks) > keptEvidence + 0.05 * abs(keptEvidence)
            || (weightedText(blocks) > 1.2 * weightedText(kept) + 2 && !isMostlyNoise(blocks))
    }

    /// Reads each low-confidence line again, cut out with a margin at twice the size as a single line, and keeps the
    /// reading Tesseract is more confident of.
    func secondLook(_ blocks: [RecognizedBlock], pixels: GrayPixels, resolution: Double?, choices: Bool)
        throws(RecognitionError) -> [RecognizedBlock]
    {
        var blocks = blocks
        let weak = blocks.indices.flatMap { b in
            blocks[b].lines.indices.compactMap { l -> (Int, Int)? in
                let line = blocks[b].lines[l]
                guard let confidence = line.confidence?.value, confidence < Self.secondLookThreshold, !line.words.isEmpty,
                    line.box.height >= 6
                else { return nil }
                return (b, l)
            }
        }.prefix(15)
        for (n, (b, l)) in weak.enumerated() {
            try monitor.check()
            monitor.report(Double(n) / Double(weak.count))
            let line = blocks[b].lines[l]
            let margin = line.box.height * 0.35
            let x = Int((line.box.minX - margin).rounded(.down)), y = Int((line.box.minY - margin).rounded(.down))
            let crop = pixels.cropped(
                x: x, y: y, width: Int((line.box.width + 2 * margin).rounded(.up)),
                height: Int((line.box.height + 2 * margin).rounded(.up)))
            let factor = line.box.height < 80 ? 2.0 : 1.0
            let enlarged = crop.scaled(by: factor)
            let again = try run(enlarged, resolution: resolution.map { $0 * factor }, region: nil, mode: PSM_SINGLE_LINE, choices: choices)
            let words = again.flatMap(\.lines).flatMap(\.words)
            guard !words.isEmpty else { continue }
            let before = Self.meanWordConfidence(line.words), after = Self.meanWordConfidence(words)
            guard after > before + 0.02 else { continue }
            let origin = Point(x: Double(max(0, x)), y: Double(max(0, y)))
            let placed = words.map { $0.transformingBoxes { Rect(x: $0.x / factor + origin.x, y: $0.y / factor + origin.y, width: $0.width / factor, height: $0.height / factor) } }
            blocks[b].lines[l].words = placed
            blocks[b].lines[l].text = placed.map(\.text).joined(separator: " ")
            blocks[b].lines[l].confidence = again.flatMap(\.lines).first?.confidence ?? line.confidence
        }
        return blocks
    }

    static func meanWordConfidence(_ words: [RecognizedWord]) -> Double {
        let values = words.compactMap { $0.confidence?.value }
        return values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    /// Whether a reading looks like the page is turned: few words, words Tesseract is unsure of on average, fewer
    /// than half of them sure, or letters and digits for less than a quarter of the letter-like marks on the page
    /// (`marksOnPage`, see ``GrayPixels/glyphs()``): a faint receipt read upside down can give a few confident words
    /// and nothing else.
    static func isPoor(_ blocks: [RecognizedBlock], marksOnPage: Int = 0) -> Bool {
        let words = blocks.flatMap(\.lines).flatMap(\.words)
        let sure = words.filter { ($0.confidence?.value ?? 0) >= 0.7 }.count
        return words.count < 3 || meanWordConfidence(words) < 0.6 || sure * 2 < words.count
            || missesPrint(blocks, marksOnPage: marksOnPage)
    }

    /// `points` in page pixels, placed in the pixels a reading was made on: `page` (the page scaled by `scale`)
    /// turned by `turns` quarter turns.
    static func placed(_ points: [Point], scaledBy scale: Double, turns: Int, in page: GrayPixels) -> [Point] {
        points.map { point in
            let placed = Rect(x: point.x * scale, y: point.y * scale, width: 0, height: 0).turned(
                quarterTurns: turns, inWidth: Double(page.width), height: Double(page.height))
            return Point(x: placed.minX, y: placed.minY)
        }
    }

    /// The share of `marks` (the centres of a page's letter-like marks, in the reading's pixels) that lie in the box of
    /// a line of the reading no taller than three characters of `glyphHeight`; 1 when there are none. Where
    /// Tesseract's layout analysis lost whole lines, their marks lie outside every line (or inside the tall box of
    /// noise it read along a shaded edge).
    static func readShare(of marks: [Point], by blocks: [RecognizedBlock], glyphHeight: Double) -> Double {
        guard !marks.isEmpty else { return 1 }
        let boxes = blocks.flatMap(\.lines).map(\.box).filter { $0.height <= 3 * glyphHeight }
        let read = marks.filter { mark in
            boxes.contains { mark.x >= $0.minX && mark.x <= $0.maxX && mark.y >= $0.minY && mark.y <= $0.maxY }
        }
        return Double(read.count) / Double(marks.count)
    }

    /// Whether `blocks` leave out print that `kept` read: they hold fewer letters and digits, and the share of the
    /// page's letter-like `marks` on their lines (``readShare(of:by:glyphHeight:)``) is lower by a tenth of the marks
    /// or more. A form read again as one block, enlarged and darkened, read its title and a few lines more surely and
    /// dropped every label (180 letters against 413, 6% of the marks against 40%): its evidence was higher, its text
    /// far poorer. Both must agree: a receipt read as one block can hold more letters on fewer, taller lines.
    static func losesPrint(_ blocks: [RecognizedBlock], than kept: [RecognizedBlock], marks: [Point], glyphHeight: Double)
        -> Bool
    {
        lettersAndDigits(blocks.flatMap(\.lines).flatMap(\.words)) < lettersAndDigits(kept.flatMap(\.lines).flatMap(\.words))
            && readShare(of: marks, by: blocks, glyphHeight: glyphHeight)
                < readShare(of: marks, by: kept, glyphHeight: glyphHeight) - 0.1
    }

    /// Whether `blocks` read much print that `kept` left out: three tenths more letters and digits (and two), on lines
    /// through no fewer of the page's letter-like `marks` (``readShare(of:by:glyphHeight:)``), with at least half its
    /// evidence and not mostly noise. A small form's page enlarged reads its upper fields surely and drops the rest;
    /// the page at its size with the paper's grain whitened reads every field, less surely (seed 127000 form-01: 408
    /// letters against 280, evidence 44 against 77).
    static func readsMorePrint(
        _ blocks: [RecognizedBlock], than kept: [RecognizedBlock], marks: [Point], glyphHeight: Double
    ) -> Bool {
        let letters = lettersAndDigits(blocks.flatMap(\.lines).flatMap(\.words))
        let keptLetters = lettersAndDigits(kept.flatMap(\.lines).flatMap(\.words))
        return Double(letters) >= 1.3 * Double(keptLetters) + 2 && !isMostlyNoise(blocks)
            && evidence(blocks) >= 0.5 * max(0, evidence(kept))
            && readShare(of: marks, by: blocks, glyphHeight: glyphHeight)
                >= readShare(of: marks, by: kept, glyphHeight: glyphHeight)
    }

    /// Whether a reading holds under a quarter as many letters and digits as the page has letter-like marks
    /// (`marksOnPage`, see ``GrayPixels/glyphs()``): most of the print was not read at all.
    static func missesPrint(_ blocks: [RecognizedBlock], marksOnPage: Int) -> Bool {
        4 * lettersAndDigits(blocks.flatMap(\.lines).flatMap(\.words)) < marksOnPage
    }

    /// Whether a turned reading replaces the kept one in the orientation trial: it holds text (at least five letters
    /// or digits, and a quarter of the kept reading's), ``clearlyBetter(_:than:)`` evidence, and characters read with
    /// no less confidence (``characterConfidence(_:)``). A reading of nothing has no evidence against it, yet it is no
    /// sign that the page is turned: a card read upright as mostly unsure words must not lose to the empty reading of
    /// it upside down. Nor is a reading of fewer unsure words, which costs less evidence: when both readings are
    /// nonsense, Tesseract is no surer of either's characters (a blurred form upside down, 0.14 against 0.15). But a
    /// turn that reads twice the text of a kept reading that itself made sense (positive evidence) wins on its
    /// evidence alone: a page lying a quarter turn wrong, whose first lines Tesseract read sideways as they stand
    /// (seed 171000 card-04 under `fast`: three lines at turn 0, all eight, a little less surely, at three quarters).
    static func turnedReadingWins(_ turned: [RecognizedBlock], over kept: [RecognizedBlock]) -> Bool {
        let characters = lettersAndDigits(turned.flatMap(\.lines).flatMap(\.words))
        let keptCharacters = lettersAndDigits(kept.flatMap(\.lines).flatMap(\.words))
        let keptEvidence = evidence(kept)
        return characters >= max(5, keptCharacters / 4)
            && clearlyBetter(evidence(turned), than: keptEvidence)
            && (characterConfidence(turned) >= characterConfidence(kept)
                || (keptEvidence > 0 && characters >= 2 * keptCharacters))
    }

    /// Whether a line was read standing, down the page: its box is over 1.5 times as tall as it is wide.
    static func stands(_ line: RecognizedLine) -> Bool {
        line.box.height > 1.5 * line.box.width
    }

    /// Whether a reading stands sideways: three lines or more, most of them standing (``stands(_:)``). Tesseract's
    /// layout analysis reads the lines of a page lying a quarter turn wrong down the page, turning them itself, and
    /// often well enough not to look poor; but it orders them against the page's sense (seed 175000 receipt-04, a
    /// receipt the scanner left lying: every line read, bottom to top, 77.8% CER).
    static func readsSideways(_ blocks: [RecognizedBlock]) -> Bool {
        let lines = blocks.flatMap(\.lines)
        let standing = lines.count(where: stands)
        return lines.count >= 3 && standing * 2 > lines.count
    }

    /// Whether a quarter-turned reading puts right a `kept` reading that stands sideways (``readsSideways(_:)``): its
    /// own lines lie across the page (three or more, under half of them standing), and it holds at least nine tenths
    /// of the kept reading's believable text (``evidence(_:)``, which must be positive). Read the right way up, such a
    /// page reads about as surely as Tesseract read it turned, so a clear margin (``turnedReadingWins(_:over:)``) is
    /// not to be had; the wrong way, it is upside down and reads as noise.
    static func turnedReadingLiesAcross(_ turned: [RecognizedBlock], whereKeptStands kept: [RecognizedBlock]) -> Bool {
        let lines = turned.flatMap(\.lines)
        let standing = lines.count(where: stands)
        let keptEvidence = evidence(kept)
        return readsSideways(kept) && lines.count >= 3 && standing * 2 < lines.count && keptEvidence > 0
            && evidence(turned) >= 0.9 * keptEvidence
    }

    /// The confidence of a reading's characters: its words' confidences weighted by their lengths (0 for a reading of
    /// nothing; words without a confidence count as 0).
    static func characterConfidence(_ blocks: [RecognizedBlock]) -> Double {
        let words = blocks.flatMap(\.lines).flatMap(\.words)
        let characters = words.reduce(0) { $0 + $1.text.count }
        guard characters > 0 else { return 0 }
        return words.reduce(0) { $0 + Double($1.text.count) * ($1.confidence?.value ?? 0) } / Double(characters)
    }

    /// How many letters and digits `words` hold.
    static func lettersAndDigits(_ words: [RecognizedWord]) -> Int {
        RecognizedPage.lettersAndDigits(of: words)
    }

    /// Whether a turned reading's ``evidence(_:)`` beats the kept one's by a clear margin: 30% of the kept one's size,
    /// and at least two characters. The page as given is usually the right way up, and two readings of nonsense
    /// differ by chance.
    static func clearlyBetter(_ evidence: Double, than kept: Double) -> Bool {
        evidence > kept + max(2, 0.3 * abs(kept))
    }

    /// The turns worth trying. Lines that run across the page leave only upside down: Tesseract's layout analysis
    /// finds lines that run down the page and reads them turned one way itself, so a quarter turn reads like no turn
    /// and three quarters like a half turn. When the lines found stand upright, a quarter turn either way too; and so
    /// when no line was found, which says nothing of the way the print runs: `fast` read seed 171000 card-04, a dark
    /// card the scanner had turned a quarter the wrong way, as nothing at its reading size, and with only the half
    /// turn tried gave no text where the three-quarter turn reads it all.
    static func turnsToTry(_ blocks: [RecognizedBlock]) -> [Int] {
        let lines = blocks.flatMap(\.lines)
        let standing = lines.count(where: stands)
        return lines.isEmpty || standing * 2 > lines.count ? [1, 3, 2] : [2]
    }

    /// Boxes read on an image turned by `quarterTurns` (now `width` × `height`) mapped back to the unturned image.
    static func unrotate(_ blocks: [RecognizedBlock], quarterTurns: Int, width: Int, height: Int) -> [RecognizedBlock] {
        map(blocks) { $0.turned(quarterTurns: 4 - quarterTurns, inWidth: Double(width), height: Double(height)) }
    }

    static func scaleBoxes(_ blocks: [RecognizedBlock], by factor: Double) -> [RecognizedBlock] {
        guard factor != 1 else { return blocks }
        return map(blocks) { scaled($0, by: factor) }
    }

    /// `rect` with its origin and size multiplied by `factor`.
    static func scaled(_ rect: Rect, by factor: Double) -> Rect {
        Rect(x: rect.x * factor, y: rect.y * factor, width: rect.width * factor, height: rect.height * factor)
    }

    static func map(_ blocks: [RecognizedBlock], _ box: (Rect) -> Rect) -> [RecognizedBlock] {
        blocks.map { $0.transformingBoxes(box) }
    }
}
