internal import CDocScanShim

/// Process-wide settings of the image engine underneath DocScan.
public enum Runtime {
    /// Caps the threads OpenCV may use for one operation (1 runs everything on the calling thread; 0 restores OpenCV's
    /// default of one per core). Useful when many photos are processed in parallel, or to measure on one core.
    public static func limitThreads(to count: Int) {
        ds_set_thread_count(Int32(clamping: count))
    }
}
