// The tables make_tables.comp makes (its KIND specialization constant): read
// by the shader and by the C++ that picks one (src/adjust/shaders.hpp), so
// that both sides name the same numbers.
#ifndef GPUHIST_TABLE_KINDS_H
#define GPUHIST_TABLE_KINDS_H

#define TABLE_EQUALIZE 0u  // equalisation, as equalize_table (OpenCV's equalizeHist)
#define TABLE_STRETCH 1u   // contrast stretch between two nearest-rank percentiles
#define TABLE_MATCH 2u     // matching to a reference's cumulative counts
#define TABLE_CLAHE 3u     // a CLAHE tile's clipped equalisation

#endif
