/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A growing XML text, for the runner's writers (the written-back scenario, the generated
 * schema): printf-like appends and escaped values. An allocation that fails marks the text
 * failed, and every later append does nothing, so a writer checks once at the end.
 */
#ifndef DDNN_XML_TEXT_H
#define DDNN_XML_TEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct
    {
        char* text; /* NUL-terminated, malloc'ed; the writer's to free() */
        size_t len, cap;
        int failed; /* an allocation failed: text is incomplete */
    } ddnn_xml_text;

#if defined(__GNUC__)
#define DDNN_PRINTF_LIKE __attribute__((format(printf, 2, 3)))
#else
#define DDNN_PRINTF_LIKE
#endif

    void ddnn_xml_text_append(ddnn_xml_text* t, const char* format, ...) DDNN_PRINTF_LIKE;

    /* `value` with &, <, > and " escaped: as an attribute's value in double quotes, or text. */
    void ddnn_xml_text_append_escaped(ddnn_xml_text* t, const char* value);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_XML_TEXT_H */
