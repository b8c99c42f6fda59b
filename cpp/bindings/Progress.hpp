// progress= arguments of long native work (Device.defragment, ...): the reporter dx12kit/_progress.py
// makes for the argument (a tqdm bar, the user's callable, or nothing), called from C++ with the GIL
// released around the work and taken again for each report.
#pragma once

#include "Bindings.hpp"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>

namespace dx12kit::bindings {

class ProgressReporter {
public:
    /// `progress`: the argument as given (None, bool, callable); TypeError for anything else.
    ProgressReporter(pybind11::object progress, const char* desc, const char* unit) {
        m_Reporter = pybind11::module_::import("dx12kit._progress").attr("reporter")(progress, desc, unit, 0, desc);
        if (!m_Reporter.is_none()) m_Update = m_Reporter.attr("update");
    }
    ~ProgressReporter() {
        if (m_Reporter.is_none()) return;
        try {
            m_Reporter.attr("close")();
        } catch (pybind11::error_already_set& e) {
            e.discard_as_unraisable("dx12kit progress reporter close");
        }
    }
    ProgressReporter(const ProgressReporter&) = delete;
    ProgressReporter& operator=(const ProgressReporter&) = delete;

    /// The callback for the native work (empty when nothing reports). It may be called and destroyed
    /// without the GIL: it holds only a borrowed pointer (the reporter outlives the work), and takes
    /// the GIL for each call. What the Python side raises propagates as error_already_set.
    std::function<void(uint64_t, uint64_t)> Callback() const {
        if (!m_Update) return nullptr;
        PyObject* update = m_Update.ptr();
        return [update](uint64_t done, uint64_t total) {
            pybind11::gil_scoped_acquire gil;
            const pybind11::handle fn(update);
            fn(done, total);
        };
    }

private:
    pybind11::object m_Reporter;
    pybind11::object m_Update;
};

}  // namespace dx12kit::bindings
