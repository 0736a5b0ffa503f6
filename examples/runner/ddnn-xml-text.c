/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-xml-text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
ddnn_xml_text_append(ddnn_xml_text* t, const char* format, ...)
{
    va_list args;
    int n;
    if (t->failed)
    {
        return;
    }
    va_start(args, format);
    n = vsnprintf(NULL, 0, format, args);
    va_end(args);
    if (n < 0)
    {
        t->failed = 1;
        return;
    }
    if (t->len + (size_t)n + 1 > t->cap)
    {
        size_t cap = (t->cap ? t->cap * 2 : 1024) + (size_t)n;
        char* grown = realloc(t->text, cap);
        if (!grown)
        {
            t->failed = 1;
            return;
        }
        t->text = grown;
        t->cap = cap;
    }
    va_start(args, format);
    vsnprintf(t->text + t->len, t->cap - t->len, format, args);
    va_end(args);
    t->len += (size_t)n;
}

void
ddnn_xml_text_append_escaped(ddnn_xml_text* t, const char* value)
{
    static const char special[] = "&<>\"";
    static const char* const entity[] = {"&amp;", "&lt;", "&gt;", "&quot;"};
    for (; *value; value++)
    {
        const char* at = strchr(special, *value);
        if (at)
        {
            ddnn_xml_text_append(t, "%s", entity[at - special]);
        }
        else
        {
            ddnn_xml_text_append(t, "%c", *value);
        }
    }
}
