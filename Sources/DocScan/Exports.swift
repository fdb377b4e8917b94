// The scan pipeline's geometry (points, quads, homographies) is part of its API.
@_exported import DocScanGeometry
