"""Tests of xwcp/render/: the heat-map picture and the text and JSON renderings."""
