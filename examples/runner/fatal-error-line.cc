/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fatal-error-line.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <streambuf>

namespace ns3
{

namespace
{

std::string g_program;
std::string g_held;        //!< the fatal message ns-3 printed last, held back for the one line
bool g_terminating{false}; //!< ns-3 said it terminates: what follows (its stack trace) is held

/** `line` without the time and node ns-3 may put first ("+0.000000000s 0 "). */
std::string
WithoutLogPrefix(const std::string& line)
{
    if (line.empty() || line[0] != '+')
    {
        return line;
    }
    size_t at = line.find("s ");
    if (at == std::string::npos)
    {
        return line;
    }
    at += 2;
    const size_t node = line.find_first_not_of("0123456789-", at);
    return node != std::string::npos && node > at && line[node] == ' ' ? line.substr(node + 1)
                                                                       : line.substr(at);
}

/** Whether a line of std::cerr is (or may yet become) what ns-3 prints before terminating. */
bool
IsFatalLine(const std::string& line)
{
    const std::string text = WithoutLogPrefix(line);
    if (text.empty() && !line.empty())
    {
        return true; // only ns-3's prefix so far: wait for the rest of the line
    }
    for (const char* start : {"msg=\"", "aborted. ", "assert failed. ", "file=", "NS_FATAL"})
    {
        if (text.rfind(start, 0) == 0)
        {
            return true;
        }
    }
    return false;
}

/** std::cerr's (and std::clog's) buffer: lines through to stderr, ns-3's fatal ones held. */
class FatalLineFilter : public std::streambuf
{
  public:
    explicit FatalLineFilter(std::streambuf* out)
        : m_out(out)
    {
    }

  protected:
    int_type
    overflow(int_type c) override
    {
        if (traits_type::eq_int_type(c, traits_type::eof()))
        {
            return traits_type::not_eof(c);
        }
        m_line.push_back(traits_type::to_char_type(c));
        if (m_line.back() == '\n')
        {
            Emit();
        }
        return c;
    }

    std::streamsize
    xsputn(const char* text, std::streamsize n) override
    {
        for (std::streamsize i = 0; i < n; ++i)
        {
            overflow(traits_type::to_int_type(text[i]));
        }
        return n;
    }

    int
    sync() override
    {
        if (g_terminating)
        {
            m_line.clear();
        }
        else if (!IsFatalLine(m_line)) // a partial line flushed: through, unless it is ns-3's
        {
            if (m_out)
            {
                m_out->sputn(m_line.data(), static_cast<std::streamsize>(m_line.size()));
            }
            m_line.clear();
        }
        return m_out ? m_out->pubsync() : 0; // null: a silenced stream (an MPI rank > 0)
    }

  private:
    void
    Emit()
    {
        if (m_line.rfind("NS_FATAL", 0) == 0) // ns-3.4x: "NS_FATAL, terminating", then a trace
        {
            g_terminating = true;
        }
        else if (!g_terminating && IsFatalLine(m_line) && !WithoutLogPrefix(m_line).empty())
        {
            g_held = WithoutLogPrefix(m_line.substr(0, m_line.size() - 1));
        }
        else if (!g_terminating)
        {
            if (m_out)
            {
                m_out->sputn(m_line.data(), static_cast<std::streamsize>(m_line.size()));
            }
        }
        m_line.clear();
    }

    std::streambuf* m_out;
    std::string m_line;
};

[[noreturn]] void
OnTerminate()
{
    std::string what = g_held;
    if (what.empty())
    {
        what = "std::terminate without a message";
        if (std::exception_ptr current = std::current_exception())
        {
            try
            {
                std::rethrow_exception(current);
            }
            catch (const std::exception& e)
            {
                what = std::string("an uncaught exception: ") + e.what();
            }
            catch (...)
            {
                what = "an uncaught exception of an unknown kind";
            }
        }
    }
    std::fprintf(stderr, "%s: error: ns-3 stopped the run: %s\n", g_program.c_str(), what.c_str());
    std::fflush(stderr);
    std::_Exit(1);
}

} // namespace

void
ReportFatalErrorsAsOneLine(const std::string& program)
{
    // ns-3 writes the message to std::cerr, and the time and node before it to std::clog.
    // Never freed: the streams flush through them when static objects are destroyed, after
    // any static filter would be gone.
    static const bool installed = [] {
        std::cerr.rdbuf(new FatalLineFilter(std::cerr.rdbuf()));
        std::clog.rdbuf(new FatalLineFilter(std::clog.rdbuf()));
        std::set_terminate(&OnTerminate);
        return true;
    }();
    (void)installed;
    g_program = program;
}

} // namespace ns3
