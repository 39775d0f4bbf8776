#include "net.h"
NetImpl::NetImpl() { setup_layers(*this); }
Net2Impl::Net2Impl() { fc = make_fc(*this); }
