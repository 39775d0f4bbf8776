// Mock of LibTorch 1.13 <torch/ordered_dict.h>.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace torch {
/// An ordered dictionary implementation, akin to Python's `OrderedDict`.
template <typename Key, typename Value>
class OrderedDict {
 public:
  /// A (key, value) pair.
  class Item;

  using Iterator = typename std::vector<Item>::iterator;
  using ConstIterator = typename std::vector<Item>::const_iterator;

  explicit OrderedDict(std::string key_description = "Key");
  OrderedDict(const OrderedDict& other);
  OrderedDict& operator=(const OrderedDict& other);
  OrderedDict(OrderedDict&& other) = default;
  OrderedDict& operator=(OrderedDict&& other) = default;
  ~OrderedDict() = default;
  /*implicit */ OrderedDict(std::initializer_list<Item> initializer_list);

  const std::string& key_description() const noexcept;

  Item& front();
  const Item& front() const;
  Item& back();
  const Item& back() const;
  Item& operator[](size_t index);
  const Item& operator[](size_t index) const;
  Value& operator[](const Key& key);
  const Value& operator[](const Key& key) const;

  Value* find(const Key& key) noexcept;
  const Value* find(const Key& key) const noexcept;
  bool contains(const Key& key) const noexcept;

  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;

  size_t size() const noexcept;
  bool is_empty() const noexcept;
  void reserve(size_t requested_capacity);

  template <typename K, typename V>
  Value& insert(K&& key, V&& value);
  Value& insert(Key key, Value&& value);
  void update(OrderedDict&& other);
  void update(const OrderedDict& other);
  void erase(const Key& key);
  void clear();

  const std::vector<Item>& items() const noexcept;
  ::std::vector<Key> keys() const;
  ::std::vector<Value> values() const;
  ::std::vector<std::pair<Key, Value>> pairs() const;

 private:
  ::std::vector<Item> items_;
  ::std::string key_description_{"Key"};
};

template <typename Key, typename Value>
class OrderedDict<Key, Value>::Item {
 public:
  Item(Key key, Value value) : pair_(std::move(key), std::move(value)) {}

  Value& operator*() { return value(); }
  const Value& operator*() const { return value(); }
  Value* operator->() { return &value(); }
  const Value* operator->() const { return &value(); }
  const Key& key() const noexcept { return pair_.first; }
  Value& value() noexcept { return pair_.second; }
  const Value& value() const noexcept { return pair_.second; }
  const std::pair<Key, Value>& pair() const noexcept { return pair_; }

 private:
  ::std::pair<Key, Value> pair_;
};

} // namespace torch
